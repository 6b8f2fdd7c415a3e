/** Server-owned metadata on create and update, as kube's rest.BeforeCreate / BeforeUpdate set it. */
import { randomInt, randomUUID } from 'node:crypto';
import { nowTimestamp, type KubeObject, type RequestContext } from '../api/index.js';
import type { ResourceDefinition, Strategy } from './definition.js';

// kube's utilrand alphabet: no vowels (no words), no look-alikes
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATE_PREFIX = 58; // 63 - 5 random characters

export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[randomInt(NAME_ALPHABET.length)];
  return prefix.slice(0, MAX_GENERATE_PREFIX) + suffix;
}

/** ObjectMeta's maps and lists are `omitempty` in kube: an emptied one (e.g. by a patch) is not stored. */
const omitWhenEmpty = ['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields'] as const;

export function dropEmptyMetadata(obj: KubeObject): void {
  const meta = obj.metadata as Record<string, unknown>;
  for (const key of omitWhenEmpty) {
    const v = meta[key];
    if (v !== null && typeof v === 'object' && Object.keys(v).length === 0) delete meta[key];
  }
}

export function fillForCreate(def: ResourceDefinition, obj: KubeObject, ctx: RequestContext): void {
  const meta = obj.metadata;
  dropEmptyMetadata(obj);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.resourceVersion;
  def.strategy.prepareForCreate?.(obj, ctx);
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp();
  if (meta.generateName && !meta.name) meta.name = generateName(meta.generateName);
  if (def.tracksGeneration) meta.generation = 1;
}

/** Keeps what a client may not change on update; the rest is the client's object. */
export function fillForUpdate(
  def: ResourceDefinition,
  strategy: Strategy,
  obj: KubeObject,
  old: KubeObject,
  ctx: RequestContext,
): void {
  const meta = obj.metadata;
  const oldMeta = old.metadata;
  dropEmptyMetadata(obj);
  if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation;
  else delete meta.generation;
  strategy.prepareForUpdate?.(obj, old, ctx);
  if (!meta.uid) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined && oldMeta.deletionGracePeriodSeconds !== null) {
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  } else delete meta.deletionGracePeriodSeconds;
  if (def.tracksGeneration && specChanged(obj, old)) meta.generation = (oldMeta.generation ?? 0) + 1;
}

/** true when anything outside metadata and status differs */
function specChanged(obj: KubeObject, old: KubeObject): boolean {
  const strip = ({ metadata: _m, status: _s, ...rest }: KubeObject) => rest;
  return !deepEqual(strip(obj), strip(old));
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => k in bo && deepEqual((a as Record<string, unknown>)[k], bo[k]));
}

/** Finalizers that hold an object in Terminating: metadata.finalizers plus kind-specific ones. */
export function pendingFinalizers(def: ResourceDefinition, obj: KubeObject): string[] {
  return [...(obj.metadata.finalizers ?? []), ...(def.strategy.finalizers?.(obj) ?? [])];
}
