/**
 * The set of fields an object sets: what a manager owns after applying it, or after writing it. Scalars,
 * atomic lists and atomic maps are leaves; every item of a set or keyed list is a member (and so are its
 * fields); a map key that is not a named struct field is a member; a named struct field is owned only through
 * what is below it.
 *
 * The walk can also check the object against its schema the way kube's typed conversion does, which is how an
 * applied configuration is validated before it is merged.
 */
import { FieldSet } from './field-set.js';
import { compareStrings, isObject } from './json-value.js';
import { elementText, field, serializeElement, type PathElement } from './path-element.js';
import {
  ListItemError,
  listItemElement,
  mapChild,
  viewFor,
  type ListView,
  type MapView,
  type ScalarView,
  type SchemaRef,
  type TypedError,
} from './schema-view.js';

/**
 * - `strict`: everything kube rejects in an applied object (unknown fields, wrong types, duplicate or
 *   unusable list items);
 * - `keys`: only list items that cannot be named (what makes kube's conversion of a written object fail);
 * - `none`: nothing; unusable list items are skipped.
 */
export type CheckLevel = 'strict' | 'keys' | 'none';

export interface TypedFieldSet {
  readonly set: FieldSet;
  readonly errors: TypedError[];
}

/** The fields `obj` sets, reading it leniently. */
export function fromObject(obj: unknown, schema: SchemaRef): FieldSet {
  return typedFieldSet(obj, schema, 'none').set;
}

export function typedFieldSet(obj: unknown, schema: SchemaRef, check: CheckLevel): TypedFieldSet {
  const w = new Walker(check);
  w.walk(obj, schema, [], true);
  return { set: w.set, errors: w.errors };
}

/** Go's `%v` of a decoded JSON value. */
function goText(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goText).join(' ')}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return `map[${keys.map((k) => `${k}:${goText(v[k])}`).join(' ')}]`;
  }
  return String(v);
}

function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  if (isObject(v)) return 'map[string]interface {}';
  return Number.isInteger(v) ? 'int64' : 'float64';
}

/** How kube's typed conversion prints an offending value (a pointer to its value wrapper). */
const shown = (v: unknown): string => `&{${goText(v)}}`;

class Walker {
  readonly set = FieldSet.empty();
  readonly errors: TypedError[] = [];

  constructor(private readonly check: CheckLevel) {}

  private fail(path: PathElement[], message: string): void {
    this.errors.push({ path: [...path], message });
  }

  walk(v: unknown, schema: SchemaRef, path: PathElement[], collect: boolean): void {
    const view = viewFor(schema, v);
    if (view.kind === 'scalar') return this.scalar(view, v, path, collect);
    if (view.kind === 'list') return this.list(view, v, path, collect);
    return this.map(view, v, path, collect);
  }

  private scalar(view: ScalarView, v: unknown, path: PathElement[], collect: boolean): void {
    if (collect) this.set.insert(path);
    if (this.check !== 'strict' || v === null) return;
    const t = typeof v;
    if (view.scalar === 'numeric' && t !== 'number') {
      this.fail(path, `expected numeric (int or float), got ${goType(v)}`);
    } else if (view.scalar === 'string' && t !== 'string') {
      this.fail(path, `expected string, got ${shown(v)}`);
    } else if (view.scalar === 'boolean' && t !== 'boolean') {
      this.fail(path, `expected boolean, got ${shown(v)}`);
    } else if (view.scalar === 'untyped' && (t === 'object' || Array.isArray(v))) {
      this.fail(path, `expected any scalar, got ${shown(v)}`);
    }
  }

  private list(view: ListView, v: unknown, path: PathElement[], collect: boolean): void {
    if (v !== null && !Array.isArray(v)) {
      if (this.check === 'strict') this.fail(path, `expected list, got ${shown(v)}`);
      if (collect) this.set.insert(path);
      return;
    }
    if (view.atomic && collect) this.set.insert(path);
    if (v === null || (view.atomic && this.check !== 'strict')) return;
    const seen = new Set<string>();
    for (let i = 0; i < v.length; i++) {
      let pe: PathElement;
      try {
        pe = listItemElement(view, v[i], i);
      } catch (err) {
        if (!(err instanceof ListItemError)) throw err;
        if (this.check !== 'none') this.fail(path, `element ${i}: ${err.message}`);
        // kube gives up on the whole list once an item cannot be named
        if (this.check === 'strict') return;
        continue;
      }
      const id = serializeElement(pe);
      if (seen.has(id) && this.check === 'strict' && !view.atomic) {
        this.fail(path, `duplicate entries for key ${elementText(pe)}`);
      }
      seen.add(id);
      const itemPath = [...path, pe];
      const own = collect && !view.atomic;
      this.walk(v[i], view.items, itemPath, own);
      if (own) this.set.insert(itemPath);
    }
  }

  private map(view: MapView, v: unknown, path: PathElement[], collect: boolean): void {
    if (v !== null && v !== undefined && !isObject(v)) {
      if (this.check === 'strict') this.fail(path, `expected map, got ${shown(v)}`);
      if (collect) this.set.insert(path);
      return;
    }
    if (view.atomic && collect) this.set.insert(path);
    if (!isObject(v) || (view.atomic && this.check !== 'strict')) return;
    for (const k of Object.keys(v)) {
      const childPath = [...path, field(k)];
      let child = mapChild(view, k);
      if (!child) {
        if (this.check === 'strict') {
          // kube reports the first undeclared key of a map and stops reading that map
          this.fail(childPath, 'field not declared in schema');
          return;
        }
        child = { schema: undefined, declared: false };
      }
      const own = collect && !view.atomic;
      this.walk(v[k], child.schema, childPath, own);
      if (own && !child.declared) this.set.insert(childPath);
    }
  }
}
