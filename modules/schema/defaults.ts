/**
 * Structural defaulting of custom resources, as kube applies `default` from a CRD schema: a missing property,
 * or a null one that may not be null, gets a copy of its default; then every value present is defaulted in
 * turn (so defaults inside a default apply too), including map values and list items, which get their
 * schema's default only where they are a null that may not be null. kube defaults on every decode, so both
 * on write and when reading objects stored before a default was added.
 *
 * `validateDefault` is what the CRD validation asks of each default: that pruning leaves it unchanged and
 * that it is a valid value of its own schema (embedded resources included).
 */
import { fieldError, isPlainObject, type FieldError, type Schema } from '../api/index.js';
import { decodeObject } from './decode.js';
import { deepEqualJSON, errorValueText } from './go-values.js';
import { copyJSON, validateEmbeddedResources } from './embedded.js';
import { validateValues } from './validate-values.js';
import { compileValueNode, type ValueNode } from './value-node.js';

/** A default kube applies: JSON null as a default is no default. */
function hasDefault(node: ValueNode | undefined): boolean {
  return node !== undefined && node.default !== undefined && node.default !== null;
}

function nonNullableNull(v: unknown, node: ValueNode | undefined): boolean {
  return v === null && node !== undefined && !node.nullable;
}

function apply(node: ValueNode, x: unknown): void {
  if (Array.isArray(x)) {
    const items = node.items;
    if (!items) return;
    for (let i = 0; i < x.length; i++) {
      if (nonNullableNull(x[i], items) && hasDefault(items)) x[i] = copyJSON(items.default);
      apply(items, x[i]);
    }
    return;
  }
  if (!isPlainObject(x)) return;
  const props = node.props;
  if (props) {
    for (const key of node.propNames) {
      const prop = props.get(key)!;
      if (!hasDefault(prop)) continue;
      if (!Object.prototype.hasOwnProperty.call(x, key) || nonNullableNull(x[key], prop))
        x[key] = copyJSON(prop.default);
    }
  }
  const additional = node.additional;
  if (!props && !additional) return;
  for (const key in x) {
    const prop = props?.get(key);
    if (prop) apply(prop, x[key]);
    else if (additional) {
      if (nonNullableNull(x[key], additional) && hasDefault(additional))
        x[key] = copyJSON(additional.default);
      apply(additional, x[key]);
    }
  }
}

/** Sets the schema's defaults in `value`, in place, and returns it. */
export function applyDefaults<T>(schema: Schema, value: T): T {
  apply(compileValueNode(schema), value);
  return value;
}

/** Whether the schema has any default at all: objects of a kind without defaults need no walk on read. */
export function hasDefaults(schema: Schema): boolean {
  const seen = new Set<ValueNode>();
  const visit = (node: ValueNode | undefined): boolean => {
    if (!node || seen.has(node)) return false;
    seen.add(node);
    if (hasDefault(node)) return true;
    if (node.props) for (const p of node.props.values()) if (visit(p)) return true;
    return visit(node.additional) || visit(node.items);
  };
  return visit(compileValueNode(schema));
}

/**
 * kube's pruning of a value against a schema (unknown fields dropped; with `resourceRoot`, apiVersion, kind
 * and metadata kept as a resource's, metadata untouched as kube's pruning leaves it): the pruned copy,
 * `value` itself untouched.
 */
export function prunedCopy(schema: Schema, value: unknown, resourceRoot: boolean): unknown {
  const copy = copyJSON(value);
  try {
    return decodeObject(copy, schema, { kind: '', customResource: true, resourceRoot, keepMetadata: true })
      .object;
  } catch {
    // a default whose metadata cannot be decoded: validation of the default reports it
    return copy;
  }
}

/**
 * The errors of the default of `schema` (the schema node holding it) as the CRD validation reports them at
 * `path` (the node's path, e.g. `spec.validation.openAPIV3Schema.properties[spec].properties[size]`):
 * `<path>.default: Invalid value: ...: must not have unknown fields`, then embedded-resource errors, else
 * the value's schema errors. CEL rules on the default are the CEL module's part. Defaults inside an
 * embedded resource's metadata need the surrounding object and are not checked here.
 */
export function validateDefault(schema: Schema, path: string): FieldError[] {
  const value = schema.default;
  if (value === undefined || value === null) return [];
  const errs: FieldError[] = [];
  const at = `${path}.default`;
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  if (!deepEqualJSON(prunedCopy(schema, value, embedded), value))
    errs.push({
      ...fieldError.invalid(at, value, 'must not have unknown fields'),
      valueText: errorValueText(value),
    });
  const embeddedErrs = validateEmbeddedResources(schema, value, at, embedded);
  if (embeddedErrs.length > 0) return errs.concat(embeddedErrs);
  return errs.concat(validateValues(schema, value, { path: at }));
}
