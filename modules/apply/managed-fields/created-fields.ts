/**
 * The managedFields of a create that brings none: the writer owns every field the new object sets. That set
 * depends only on the object's shape (its keys, the JSON types of its values, its lists whole), so creates of
 * one shape reuse it: most creates repeat a few shapes, and tracking a create from scratch is a full typed
 * comparison.
 */
import type { Schema } from '../../api/index.js';
import { nowTimestamp } from '../../api/index.js';
import type { ManagedFieldsEntry } from './entries.js';

/** Entries kept per schema; past this the cache starts over (objects of ever-new shapes gain nothing from it). */
const MAX_SHAPES = 512;

/** The entry of a shape, but its time; fieldsV1 as JSON, parsed per use (stored objects must not share it). */
interface Template {
  entry: Omit<ManagedFieldsEntry, 'time'>;
  fieldsV1: string;
}

/** Per schema: shape key → its template (undefined: the writer owns nothing). */
const cache = new WeakMap<Schema, Map<string, Template | undefined>>();

/**
 * Everything the ownership of a created object can depend on: map keys and value types (a scalar's value never
 * matters), and each list as it is (items are named by their key fields, or by their whole value).
 */
function shapeKey(value: unknown, out: string[], skip?: string): void {
  if (Array.isArray(value)) out.push(JSON.stringify(value));
  else if (value === null) out.push('z');
  else if (typeof value === 'object') {
    out.push('{');
    for (const k in value) {
      if (!Object.hasOwn(value, k) || k === skip) continue;
      out.push(JSON.stringify(k));
      shapeKey((value as Record<string, unknown>)[k], out);
    }
    out.push('}');
  } else out.push(typeof value === 'string' ? 's' : typeof value === 'boolean' ? 'b' : 'd');
}

/** The shape of a created object: its own managedFields (in metadata) left out. */
function createdShape(obj: Record<string, unknown>, out: string[]): void {
  out.push('{');
  for (const k in obj) {
    if (!Object.hasOwn(obj, k)) continue;
    out.push(JSON.stringify(k));
    const v = obj[k];
    const isMap = k === 'metadata' && v !== null && typeof v === 'object' && !Array.isArray(v);
    shapeKey(v, out, isMap ? 'managedFields' : undefined);
  }
  out.push('}');
}

/**
 * The entries of a create of `obj` (its own managedFields left out of account). `track` computes them the
 * long way for a shape not seen yet; its result is reused, with the time of this write.
 */
export function createdEntries(
  obj: Record<string, unknown>,
  schema: Schema,
  context: string,
  time: string | undefined,
  track: () => ManagedFieldsEntry[],
): ManagedFieldsEntry[] {
  const parts = [context, '\u0000'];
  createdShape(obj, parts);
  const key = parts.join('');
  let shapes = cache.get(schema);
  if (!shapes) cache.set(schema, (shapes = new Map()));
  let template = shapes.get(key);
  if (template === undefined && !shapes.has(key)) {
    const entries = track();
    if (entries.length > 1) return entries;
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    template = entries.length === 0 ? undefined : withoutTime(entries[0]);
    shapes.set(key, template);
  }
  if (!template) return [];
  return [withTime(template, time ?? nowTimestamp())];
}

function withoutTime(entry: ManagedFieldsEntry): Template {
  const { time: _time, ...rest } = entry;
  return { entry: rest, fieldsV1: JSON.stringify(entry.fieldsV1) };
}

/** A fresh entry in kube's key order. */
function withTime(t: Template, time: string): ManagedFieldsEntry {
  const e = t.entry;
  const entry: ManagedFieldsEntry = {};
  if (e.manager !== undefined) entry.manager = e.manager;
  entry.operation = e.operation;
  if (e.apiVersion !== undefined) entry.apiVersion = e.apiVersion;
  entry.time = time;
  entry.fieldsType = e.fieldsType;
  entry.fieldsV1 = JSON.parse(t.fieldsV1) as ManagedFieldsEntry['fieldsV1'];
  if (e.subresource !== undefined) entry.subresource = e.subresource;
  return entry;
}
