/**
 * Objects marked `x-kubernetes-embedded-resource` inside a custom resource (a Pod template, a manifest to
 * apply) are validated as kube validates objects: apiVersion and kind required and well formed, metadata an
 * ObjectMeta (Go's decoding error when a field has the wrong type) passing kube's object metadata rules,
 * with names checked as path segments and a namespace allowed. The custom resource's own root is not checked
 * here: its metadata gets the generic object validation.
 */
import {
  ApiError,
  fieldError,
  isPlainObject,
  objectMetaSchema,
  type FieldError,
  type ObjectMeta,
  type Schema,
} from '../api/index.js';
import { isDNS1035Label, validateObjectMeta } from '../validation/index.js';
import { decodeObject } from './decode.js';
import { errorValueText } from './go-values.js';
import { anyBelow, compileValueNode, type ValueNode } from './value-node.js';

const isEmbedded = (n: ValueNode): boolean => n.embedded;

function child(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function invalid(field: string, value: unknown, detail: string): FieldError {
  return { ...fieldError.invalid(field, value, detail), valueText: errorValueText(value) };
}

/** Deep copy of a JSON value (structuredClone is slower for plain data). */
export function copyJSON<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyJSON) as T;
  const out: Record<string, unknown> = {};
  for (const k in v as Record<string, unknown>) out[k] = copyJSON((v as Record<string, unknown>)[k]);
  return out as T;
}

/**
 * Decodes a metadata value as Go decodes it into an ObjectMeta: the ObjectMeta with unknown fields dropped,
 * or Go's error text (`json: cannot unmarshal string into Go struct field ObjectMeta.labels of type
 * map[string]string`).
 */
export function decodeObjectMeta(value: unknown): { meta: ObjectMeta } | { error: string } {
  try {
    const { object } = decodeObject(copyJSON(value), objectMetaSchema, { kind: 'ObjectMeta' });
    return { meta: (object ?? {}) as ObjectMeta };
  } catch (e) {
    if (e instanceof ApiError) return { error: e.message };
    throw e;
  }
}

/** schema.ParseGroupVersion's error, or undefined. */
function groupVersionError(apiVersion: string): string | undefined {
  if (apiVersion.split('/').length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
  return undefined;
}

function validateEmbeddedResource(path: string, x: Record<string, unknown>, errs: FieldError[]): void {
  if (!Object.prototype.hasOwnProperty.call(x, 'apiVersion'))
    errs.push(fieldError.required(child(path, 'apiVersion'), 'must not be empty'));
  if (!Object.prototype.hasOwnProperty.call(x, 'kind'))
    errs.push(fieldError.required(child(path, 'kind'), 'must not be empty'));
  for (const k in x) {
    const v = x[k];
    const field = child(path, k);
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(field, v, 'must be a string'));
      else if (v === '') errs.push(invalid(field, v, 'must not be empty'));
      else {
        const problem = groupVersionError(v);
        if (problem) errs.push(invalid(field, v, problem));
      }
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(field, v, 'must be a string'));
      else if (v === '') errs.push(invalid(field, v, 'must not be empty'));
      else {
        const problems = isDNS1035Label(v.toLowerCase());
        if (problems.length > 0)
          errs.push(
            invalid(field, v, `may have mixed case, but should otherwise match: ${problems.join(',')}`),
          );
      }
    } else if (k === 'metadata') {
      const decoded = decodeObjectMeta(v);
      if ('error' in decoded) {
        errs.push(invalid(field, v, decoded.error));
        continue;
      }
      const meta = decoded.meta;
      // kube validates an embedded object's metadata with a stand-in name when it has none
      if (!meta.name) meta.name = 'fakename';
      const found = validateObjectMeta(meta, { namespaced: !!meta.namespace, nameRule: 'pathSegment' });
      for (const e of found) errs.push({ ...e, field: field + e.field.slice('metadata'.length) });
    }
  }
}

function walk(path: string, node: ValueNode, x: unknown, errs: FieldError[]): void {
  if (!anyBelow(node, 'embedded', isEmbedded)) return;
  if (Array.isArray(x)) {
    if (node.items) for (let i = 0; i < x.length; i++) walk(`${path}[${i}]`, node.items, x[i], errs);
    return;
  }
  if (!isPlainObject(x)) return;
  if (node.embedded) validateEmbeddedResource(path, x, errs);
  for (const k in x) {
    const prop = node.props?.get(k);
    if (prop) walk(child(path, k), prop, x[k], errs);
    else if (node.additional) walk(`${path}[${k}]`, node.additional, x[k], errs);
  }
}

/**
 * The errors of the embedded resources in `value` (kube's objectmeta.Validate). With `resourceRoot`, the
 * value itself is checked as a resource too (kube does so for defaults of a whole resource).
 */
export function validateEmbeddedResources(
  schema: Schema,
  value: unknown,
  path = '',
  resourceRoot = false,
): FieldError[] {
  const errs: FieldError[] = [];
  const node = compileValueNode(schema);
  if (resourceRoot && !node.embedded && isPlainObject(value)) {
    validateEmbeddedResource(path, value, errs);
    for (const k in value) {
      const prop = node.props?.get(k);
      if (prop) walk(child(path, k), prop, value[k], errs);
      else if (node.additional) walk(`${path}[${k}]`, node.additional, value[k], errs);
    }
    return errs;
  }
  walk(path, node, value, errs);
  return errs;
}
