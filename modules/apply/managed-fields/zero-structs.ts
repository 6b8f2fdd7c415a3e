/**
 * Kube compares typed Go objects, in which some fields exist even when a JSON object leaves them out: a
 * struct-valued field that is not a pointer is always there (`spec: {}`), and a field without `omitempty`
 * always has a value (`containers: null`, `name: ""`). Whether a container existed before decides whether its
 * writer owns it as a whole (`.`), so comparisons run on copies where those fields are filled in as Go holds
 * them.
 *
 * Only built-in kinds are Go types: their schemas carry protobuf field numbers (`x-pgkube-protobuf`) and mark
 * pointer fields (`x-pgkube-pointer`); a field Go always writes is listed in its struct's `required` (that is
 * how kube's OpenAPI generator decides). Custom resources stay as written, as kube keeps them.
 */
import type { Schema } from '../../api/index.js';
import { isObject, setOwn, type JsonObject } from './json-value.js';
import { mapChild, schemaView, type SchemaRef } from './schema-view.js';

const isGoField = (s: Schema): boolean => s['x-pgkube-protobuf'] !== undefined;

function isValueStruct(s: Schema): boolean {
  return (
    isGoField(s) &&
    !s['x-pgkube-pointer'] &&
    (s.type === 'object' || s.type === undefined) &&
    !!s.properties &&
    s.additionalProperties === undefined
  );
}

/** What Go holds in a field its JSON left out, or undefined when Go leaves it out as well. */
function goZero(s: Schema, required: boolean): unknown {
  if (!isGoField(s)) return undefined;
  if (isValueStruct(s)) return {};
  if (!required) return undefined;
  if (s['x-pgkube-pointer'] || s['x-kubernetes-int-or-string']) return null;
  switch (s.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** A copy of `value` with the fields a Go value of a built-in kind always has filled in. */
export function withZeroStructs(value: unknown, schema: SchemaRef): unknown {
  const view = schemaView(schema);
  if (view === 'deduced' || view.kind === 'scalar') return value;
  if (view.kind === 'list') {
    return Array.isArray(value) ? value.map((item) => withZeroStructs(item, view.items)) : value;
  }
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) setOwn(out, k, withZeroStructs(v, mapChild(view, k)?.schema));
  if (view.fields) {
    const required = new Set(schema?.required ?? []);
    for (const [k, s] of Object.entries(view.fields)) {
      const current = Object.hasOwn(out, k) ? out[k] : undefined;
      if (current !== undefined && !(current === null && isValueStruct(s))) continue;
      const zero = goZero(s, required.has(k));
      if (zero !== undefined) setOwn(out, k, withZeroStructs(zero, s));
    }
  }
  return out;
}
