/**
 * managedFields for a non-apply write (create, update, non-apply patch): the writer becomes the owner of every
 * field it added or changed, other managers lose those fields, and fields the write removed leave everyone.
 * Such a write never conflicts.
 */
import type { Schema } from '../../api/index.js';
import { nowTimestamp } from '../../api/index.js';
import { capUpdateManagers } from './cap-managers.js';
import { createdEntries } from './created-fields.js';
import { compareObjects, excludeFields } from './compare.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentity,
  ManagedFieldsError,
  type Managed,
  type ManagedFieldsEntry,
} from './entries.js';
import type { FieldSet } from './field-set.js';
import { isObject } from './json-value.js';
import { settleOwnership, stripUnowned } from './owners.js';
import { reconcileWithSchema } from './reconcile.js';
import { TypedValueError, type SchemaRef } from './schema-view.js';
import { withZeroStructs } from './zero-structs.js';

export interface WriteOptions {
  /** group/version of the request, e.g. `v1` or `coordination.k8s.io/v1` */
  apiVersion: string;
  /** the subresource written through (`status`, ...); its entries are kept apart from the main resource's */
  subresource?: string;
  /** RFC 3339 time stamped on the entries this write changes (defaults to now) */
  now?: string;
  /** fields this write path resets, which nobody owns through it (e.g. `status` for the main resource) */
  ignoredFields?: FieldSet;
}

/** Any object with (optional) metadata; only metadata.managedFields is read. */
export interface ObjectLike {
  metadata?: { managedFields?: unknown } & Record<string, unknown>;
  [key: string]: unknown;
}

/** An identity that never names a real manager, for the write in progress. */
const currentOperation = 'current-operation';

function withoutManagedFields(obj: unknown): unknown {
  if (!isObject(obj) || !isObject(obj.metadata) || !Object.hasOwn(obj.metadata, 'managedFields')) return obj;
  const metadata = { ...obj.metadata };
  delete metadata.managedFields;
  return { ...obj, metadata };
}

/** Every manager's fields adjusted to the current schema (see reconcile.ts). */
export function reconcileManaged(managed: Managed, schema: SchemaRef): Managed {
  const out: Managed = new Map();
  for (const [id, m] of managed) {
    const fields = reconcileWithSchema(m.fields, schema);
    out.set(id, fields ? { ...m, fields } : m);
  }
  return out;
}

/**
 * The ownership after `manager` wrote `next` over `live` (use `{}` for a create). Throws TypedValueError when
 * a list item in either object cannot be named.
 */
export function trackUpdate(
  live: unknown,
  next: unknown,
  managed: Managed,
  manager: string,
  schema: Schema,
  opts: WriteOptions,
): Managed {
  const identity = managerIdentity({
    manager: manager || 'unknown',
    operation: 'Update',
    apiVersion: opts.apiVersion,
    subresource: opts.subresource,
  });
  const before = withZeroStructs(withoutManagedFields(live), schema);
  const after = withZeroStructs(withoutManagedFields(next), schema);
  const cmp = compareObjects(before, after, schema);
  if (cmp.errors.length > 0) throw new TypedValueError(cmp.errors);
  const changes = excludeFields(cmp, opts.ignoredFields);
  const settled = settleOwnership(reconcileManaged(managed, schema), changes, currentOperation, true);
  const gained = stripUnowned(changes.modified.union(changes.added));
  if (!gained.isEmpty()) {
    const previous = settled.get(identity);
    settled.set(identity, {
      fields: previous ? gained.union(previous.fields) : gained,
      apiVersion: opts.apiVersion,
      applied: false,
      time: opts.now ?? nowTimestamp(),
    });
  }
  return capUpdateManagers(settled);
}

function decodeOrEmpty(entries: unknown): Managed {
  try {
    return decodeManagedFields(entries);
  } catch (err) {
    if (err instanceof ManagedFieldsError) return new Map();
    throw err;
  }
}

/**
 * The managedFields to store for a non-apply write of `newObj` by `manager` (`oldObj` undefined for a
 * create). An empty result means the object carries no managedFields.
 *
 * Whose entries are the starting point: on a subresource, always the stored ones; otherwise the ones the
 * request carries when they decode to at least one entry (so clients can edit them), else the stored ones.
 * A request carrying exactly `[{}]` starts from nothing, and the writer then owns what it changed. An
 * existing object without managedFields stays untracked until something applies to it, as in kube.
 */
export function recordUpdate(
  oldObj: ObjectLike | undefined,
  newObj: ObjectLike,
  manager: string,
  schema: Schema,
  opts: WriteOptions,
): ManagedFieldsEntry[] {
  const liveEntries = oldObj?.metadata?.managedFields;
  const sent = newObj.metadata?.managedFields;
  let managed: Managed;
  const reset = !opts.subresource && isResetManagedFields(sent);
  if (opts.subresource) {
    managed = decodeOrEmpty(liveEntries);
  } else if (reset) {
    managed = new Map();
  } else {
    let fromRequest: Managed | undefined;
    try {
      fromRequest = decodeManagedFields(sent);
    } catch (err) {
      if (!(err instanceof ManagedFieldsError)) throw err;
    }
    managed = fromRequest && fromRequest.size > 0 ? fromRequest : decodeOrEmpty(liveEntries);
  }
  if (managed.size === 0 && oldObj !== undefined && !reset) return [];
  const track = (): ManagedFieldsEntry[] => {
    try {
      return encodeManagedFields(trackUpdate(oldObj ?? {}, newObj, managed, manager, schema, opts));
    } catch (err) {
      if (!(err instanceof TypedValueError)) throw err;
      // an object kube cannot type keeps the ownership it had
      return Array.isArray(liveEntries) ? (structuredClone(liveEntries) as ManagedFieldsEntry[]) : [];
    }
  };
  if (oldObj !== undefined || managed.size > 0) return track();
  const context = JSON.stringify([
    manager,
    opts.apiVersion,
    opts.subresource,
    opts.ignoredFields?.toString(),
  ]);
  return createdEntries(newObj, schema, context, opts.now, track);
}

/** kube's limit on a field manager name, in bytes. */
export const fieldManagerMaxLength = 128;

/**
 * The manager a non-apply write is recorded under: the `fieldManager` parameter, else the User-Agent up to its
 * first `/`, without unprintable characters and cut to 128 bytes (`kubectl/v1.32.3 (linux/amd64)` →
 * `kubectl`).
 */
export function managerName(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const prefix = (userAgent ?? '').split('/')[0];
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (/[\p{C}\p{Z}]/u.test(ch) && ch !== ' ') continue;
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > fieldManagerMaxLength) break;
    out += ch;
    bytes += n;
  }
  return out;
}
