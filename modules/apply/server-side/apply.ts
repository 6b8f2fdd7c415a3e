/**
 * Server-side apply: merges an applied configuration into the live object (or into nothing, for a create)
 * and works out who owns what afterwards, the way kube-apiserver does.
 *
 * - The applier owns exactly the fields of its configuration; fields it owned before and no longer applies are
 *   removed unless another manager owns them too.
 * - Changing a field another manager owns is a conflict (409) unless `force`, which takes the field over;
 *   applying the value a field already has shares its ownership.
 * - An object nobody owns anything in first gets a `before-first-apply` Update entry for its existing fields.
 */
import { ApiError } from '../../api/index.js';
import type { Schema } from '../../api/index.js';
import { nowTimestamp } from '../../api/index.js';
import { compareObjects, excludeFields } from '../managed-fields/compare.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  ManagedFieldsError,
  managerIdentity,
  withManagedFields,
  type Managed,
  type ManagedFieldsEntry,
} from '../managed-fields/entries.js';
import type { FieldSet } from '../managed-fields/field-set.js';
import { typedFieldSet } from '../managed-fields/from-object.js';
import { deepCopy, deepEqual, isObject, type JsonObject } from '../managed-fields/json-value.js';
import { FieldConflicts, settleOwnership, stripUnowned } from '../managed-fields/owners.js';
import { typedErrorText, TypedValueError } from '../managed-fields/schema-view.js';
import { reconcileManaged, trackUpdate } from '../managed-fields/update.js';
import { withZeroStructs } from '../managed-fields/zero-structs.js';
import { conflictError } from './conflict.js';
import { allowedByLastApplied, kubectlManager, lastAppliedOf, withLastApplied } from './last-applied.js';
import { mergeObjects } from './merge.js';
import { prune } from './prune.js';
import { dropRemovalNulls } from './remove-items.js';

export interface ApplyOptions {
  /** take over fields other managers own instead of failing with a conflict */
  force?: boolean;
  /** group/version served by the request; defaults to the configuration's apiVersion */
  apiVersion?: string;
  /** the kind served by the request; when given, the configuration must name the same apiVersion and kind */
  kind?: string;
  subresource?: string;
  /** RFC 3339 time stamped on the entries this apply changes (defaults to now) */
  now?: string;
  /** fields this write path resets, which nobody owns through it (e.g. `status` for the main resource) */
  ignoredFields?: FieldSet;
}

export interface ApplyResult {
  /** the merged object, with its new metadata.managedFields (absent when there are none) */
  object: JsonObject;
  managedFields: ManagedFieldsEntry[];
  /** false when the apply changed nothing but ownership */
  changed: boolean;
}

/** The manager kube records for the fields an object had before anything applied to it. */
export const beforeFirstApplyManager = 'before-first-apply';

const internal = (message: string): ApiError => new ApiError(500, '', message);

/** `group/version, Kind=kind` as kube prints a GroupVersionKind. */
function gvkText(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const parts = av.split('/');
  const [group, version] = parts.length === 2 ? parts : parts.length === 1 ? ['', av] : ['', ''];
  return `${group}/${version}, Kind=${typeof kind === 'string' && parts.length <= 2 ? kind : ''}`;
}

function objectName(obj: JsonObject): string {
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  return `${str(meta.namespace)}/${str(meta.name)}; ${gvkText(obj.apiVersion, obj.kind)}`;
}

function stripManagedFields(obj: unknown): unknown {
  if (!isObject(obj) || !isObject(obj.metadata)) return obj;
  const metadata = { ...obj.metadata };
  delete metadata.managedFields;
  return { ...obj, metadata };
}

interface Context {
  schema: Schema;
  apiVersion: string;
  subresource?: string;
  now: string;
  ignored?: FieldSet;
}

interface Outcome {
  object: JsonObject;
  managed: Managed;
  changed: boolean;
}

function applyOnce(
  live: JsonObject,
  config: JsonObject,
  managed: Managed,
  manager: string,
  force: boolean,
  ctx: Context,
): Outcome {
  const { schema, ignored } = ctx;
  const writeOpts = {
    apiVersion: ctx.apiVersion,
    subresource: ctx.subresource,
    now: ctx.now,
    ignoredFields: ignored,
  };
  if (managed.size === 0) {
    try {
      managed = trackUpdate({}, live, managed, beforeFirstApplyManager, schema, writeOpts);
    } catch (err) {
      if (!(err instanceof TypedValueError)) throw err;
      throw internal(`failed to create manager for existing fields: ${err.message}`);
    }
  }
  const applier = managerIdentity({
    manager: manager || 'unknown',
    operation: 'Apply',
    subresource: ctx.subresource,
  });
  managed = reconcileManaged(managed, schema);

  const typed = typedFieldSet(config, schema, 'strict');
  if (typed.errors.length > 0) {
    throw internal(
      `failed to create typed patch object (${objectName(config)}): ${typedErrorText(typed.errors)}`,
    );
  }
  const liveErrors = typedFieldSet(live, schema, 'keys').errors;
  if (liveErrors.length > 0) {
    throw internal(`failed to create typed live object (${objectName(live)}): ${typedErrorText(liveErrors)}`);
  }

  const previous = managed.get(applier);
  let fields = typed.set;
  let last = previous?.fields;
  if (ignored) {
    fields = fields.recursiveDifference(ignored);
    last = last?.recursiveDifference(ignored);
  }
  managed = new Map(managed);
  managed.set(applier, { fields, apiVersion: ctx.apiVersion, applied: true, time: previous?.time });

  const merged = mergeObjects(live, config, schema);
  const pruned = prune(merged, schema, managed, last) as JsonObject;
  const cmp = compareObjects(
    withZeroStructs(stripManagedFields(live), schema),
    withZeroStructs(stripManagedFields(pruned), schema),
    schema,
  );
  if (cmp.errors.length > 0) throw internal(`failed to compare objects: ${typedErrorText(cmp.errors)}`);
  managed = settleOwnership(managed, excludeFields(cmp, ignored), applier, force);

  const changed = !deepEqual(live, pruned);
  const owned = stripUnowned(managed.get(applier)!.fields);
  if (owned.isEmpty()) managed.delete(applier);
  else
    managed.set(applier, {
      ...managed.get(applier)!,
      fields: owned,
      time: changed ? ctx.now : previous?.time,
    });
  return { object: dropRemovalNulls(pruned, merged, schema) as JsonObject, managed, changed };
}

/**
 * Applies `applied` for `manager` to `live` (undefined when the object does not exist yet; the caller decides
 * whether creating is allowed). Throws ApiError: 400 for a configuration that sets managedFields or names
 * another kind, 409 with one cause per conflicting field, 500 for a configuration that does not fit the
 * schema (kube's typed conversion errors).
 */
export function apply(
  live: JsonObject | undefined,
  applied: JsonObject,
  manager: string,
  schema: Schema,
  opts: ApplyOptions = {},
): ApplyResult {
  // kube's order: the stored entries are read first, then the configuration's type, then its metadata
  let managed: Managed;
  try {
    managed = decodeManagedFields(isObject(live?.metadata) ? live.metadata.managedFields : undefined);
  } catch (err) {
    if (!(err instanceof ManagedFieldsError)) throw err;
    throw internal(`failed to decode managed fields: ${err.message}`);
  }
  const apiVersion = opts.apiVersion ?? (typeof applied.apiVersion === 'string' ? applied.apiVersion : '');
  if (opts.kind !== undefined && (applied.apiVersion !== apiVersion || applied.kind !== opts.kind)) {
    throw ApiError.badRequest(`invalid object type: ${gvkText(applied.apiVersion, applied.kind)}`);
  }
  if (isObject(applied.metadata) && Array.isArray(applied.metadata.managedFields)) {
    throw ApiError.badRequest('metadata.managedFields must be nil');
  }
  const ctx: Context = {
    schema,
    apiVersion,
    subresource: opts.subresource || undefined,
    now: opts.now ?? nowTimestamp(),
    ignored: opts.ignoredFields,
  };
  const current = deepCopy(live ?? {});
  const config = deepCopy(applied);

  let outcome: Outcome;
  try {
    outcome = applyOnce(current, config, managed, manager, !!opts.force, ctx);
  } catch (err) {
    if (!(err instanceof FieldConflicts)) throw err;
    outcome = retryAsClientSideUpgrade(err, current, config, managed, manager, ctx);
  }

  let object = outcome.object;
  if (manager === kubectlManager && lastAppliedOf(current) !== undefined)
    object = withLastApplied(object, config);
  const managedFields = encodeManagedFields(outcome.managed);
  object = withManagedFields(object, managedFields);
  return {
    object,
    managedFields,
    changed: !deepEqual(stripManagedFields(current), stripManagedFields(object)),
  };
}

/** kubectl's conflicts on fields its client-side apply annotation vouches for are forced through. */
function retryAsClientSideUpgrade(
  err: FieldConflicts,
  live: JsonObject,
  config: JsonObject,
  managed: Managed,
  manager: string,
  ctx: Context,
): Outcome {
  const allowed =
    manager === kubectlManager ? allowedByLastApplied(live, ctx.schema, ctx.apiVersion) : undefined;
  if (!allowed) throw conflictError(err.conflicts);
  const remaining = err.conflicts.filter((c) => !allowed.has(c.path));
  if (remaining.length > 0) throw conflictError(remaining);
  return applyOnce(live, config, managed, manager, true, ctx);
}
