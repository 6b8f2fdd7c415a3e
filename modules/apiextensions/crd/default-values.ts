/**
 * kube's check of the `default`s in a structural schema (defaulting.ValidateDefaults): a default must
 * survive pruning unchanged (no fields the schema would drop) and must itself be valid. Judging a value
 * against its schema (types, formats, enum, CEL rules) is the values module's work, given to us as
 * `validateDefault`; this file decides where defaults are and which of kube's rules apply to each.
 */
import { fieldError, type FieldError, type Schema } from '../../api/index.js';
import { child, isRaw, jsonEqual, key, schemaMap, subSchema, type Raw } from './schema-walk.js';

/**
 * Judges one default against the schema it sits in. `insideResourceMeta` says the default lies in the
 * apiVersion, kind or metadata of a resource (the root or an embedded one): kube checks those by building
 * the surrounding object's metadata (answering "must result in valid metadata: ..."), not by pruning.
 */
export type ValidateDefault = (
  schema: Schema,
  value: unknown,
  path: string,
  context: { insideResourceMeta: boolean },
) => FieldError[];

export interface DefaultsOptions {
  requirePrunedDefaults: boolean;
  validateDefault?: ValidateDefault;
}

/** The root is validated as a resource: its apiVersion, kind and metadata are resource meta. */
export function validateDefaults(root: Raw, path: string, opts: DefaultsOptions): FieldError[] {
  const asResource =
    root['x-kubernetes-embedded-resource'] === true
      ? root
      : { ...root, 'x-kubernetes-embedded-resource': true };
  return walk(asResource, path, false, opts);
}

function walk(s: Raw, path: string, insideMeta: boolean, opts: DefaultsOptions): FieldError[] {
  const errs: FieldError[] = [];
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (embedded) insideMeta = false;
  if (s.default !== undefined && s.default !== null) {
    const at = child(path, 'default');
    // inside resource meta kube coerces the default into ObjectMeta instead of pruning it
    if (!insideMeta && opts.requirePrunedDefaults && !jsonEqual(pruned(s.default, s, embedded), s.default))
      errs.push(fieldError.invalid(at, s.default, 'must not have unknown fields'));
    if (opts.validateDefault)
      errs.push(
        ...opts.validateDefault(s as unknown as Schema, structuredClone(s.default), at, {
          insideResourceMeta: insideMeta,
        }),
      );
  }
  const items = subSchema(s, 'items');
  if (items) errs.push(...walk(items, child(path, 'items'), insideMeta, opts));
  for (const [k, p] of schemaMap(s, 'properties')) {
    const sub = insideMeta || (embedded && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    errs.push(...walk(p, key(child(path, 'properties'), k), sub, opts));
  }
  return errs;
}

/** A pruned copy of `value`, as kube's pruning would leave it (unknown fields dropped). */
export function pruned(value: unknown, s: Raw | undefined, isResourceRoot: boolean): unknown {
  const copy = structuredClone(value);
  prune(copy, s, isResourceRoot);
  return copy;
}

function prune(x: unknown, s: Raw | undefined, embeddedHere: boolean): void {
  if (s?.['x-kubernetes-preserve-unknown-fields'] === true) {
    keepUnknown(x, s);
    return;
  }
  if (Array.isArray(x)) {
    const items = s ? subSchema(s, 'items') : undefined;
    for (const v of x) prune(v, items, items?.['x-kubernetes-embedded-resource'] === true);
    return;
  }
  if (!isRaw(x)) return;
  if (!s) {
    for (const k of Object.keys(x)) delete x[k];
    return;
  }
  const props = isRaw(s.properties) ? s.properties : {};
  for (const [k, v] of Object.entries(x)) {
    if (embeddedHere && isResourceMeta(k, v)) continue;
    const p = props[k];
    if (isRaw(p)) prune(v, p, p['x-kubernetes-embedded-resource'] === true);
    else if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
      const ap = subSchema(s, 'additionalProperties');
      prune(v, ap, ap?.['x-kubernetes-embedded-resource'] === true);
    } else delete x[k];
  }
}

/** Under preserve-unknown-fields unknown fields stay, but what the schema declares is still pruned. */
function keepUnknown(x: unknown, s: Raw): void {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (Array.isArray(x)) {
    const items = subSchema(s, 'items');
    if (items) for (const v of x) keepUnknown(v, items);
    return;
  }
  if (!isRaw(x)) return;
  const props = isRaw(s.properties) ? s.properties : {};
  const ap = subSchema(s, 'additionalProperties');
  for (const [k, v] of Object.entries(x)) {
    if (embedded && isResourceMeta(k, v)) continue;
    const p = props[k];
    if (isRaw(p)) prune(v, p, p['x-kubernetes-embedded-resource'] === true);
    else if (ap) prune(v, ap, ap['x-kubernetes-embedded-resource'] === true);
  }
}

function isResourceMeta(k: string, v: unknown): boolean {
  return ((k === 'apiVersion' || k === 'kind') && typeof v === 'string') || (k === 'metadata' && isRaw(v));
}
