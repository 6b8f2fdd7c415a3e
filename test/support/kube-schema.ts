/**
 * Validates manifests against Kubernetes v1.32's OpenAPI definitions (test/schemas/kube-v1.32.json, written by
 * scripts/kube-definitions.mjs from kube's release-1.32 swagger.json), as strictly as
 * `kubectl apply --validate=strict`: unknown fields, wrong types, missing required fields and unknown kinds are
 * errors. Quantities and int-or-strings take a string or a number, as kube's decoders (and its OpenAPI v3) do.
 */
import { readFileSync } from 'node:fs';

interface Schema {
  type?: string;
  format?: string;
  required?: string[];
  $ref?: string;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  properties?: Record<string, Schema>;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

const file = JSON.parse(
  readFileSync(new URL('../../../test/schemas/kube-v1.32.json', import.meta.url), 'utf8'),
) as { source: string; definitions: Record<string, Schema> };
const definitions = file.definitions;
const REF = '#/definitions/';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
// kube's resource.Quantity grammar: a signed decimal, then a binary or decimal SI suffix or an exponent
const quantityPattern = /^[+-]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const byKind = new Map<string, string>();
for (const [name, d] of Object.entries(definitions))
  for (const g of d['x-kubernetes-group-version-kind'] ?? [])
    byKind.set(`${g.group ? `${g.group}/` : ''}${g.version}/${g.kind}`, name);

/** `apiVersion/kind` keys of the kinds the definitions hold. */
export const kubeKinds = (): string[] => [...byKind.keys()];
export const hasKubeSchema = (apiVersion: string, kind: string) => byKind.has(`${apiVersion}/${kind}`);

/** Errors of one manifest, `path: message` each; none when it is valid. */
export function validateKube(manifest: { apiVersion?: unknown; kind?: unknown }): string[] {
  const name = byKind.get(`${String(manifest.apiVersion)}/${String(manifest.kind)}`);
  if (!name) return [`no v1.32 schema for ${String(manifest.apiVersion)}/${String(manifest.kind)}`];
  const errors: string[] = [];
  check(manifest, { $ref: REF + name }, '', errors);
  return errors;
}

const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));
const at = (path: string, field: string) => (path ? `${path}.${field}` : field);

function check(value: unknown, schema: Schema, path: string, errors: string[]): void {
  const where = path || '<root>';
  if (schema.$ref) {
    const name = schema.$ref.slice(REF.length);
    if (name === QUANTITY) {
      if (typeof value === 'number' || (typeof value === 'string' && quantityPattern.test(value))) return;
      errors.push(`${where}: must be a quantity, not ${show(value)}`);
      return;
    }
    const target = definitions[name];
    if (!target) throw new Error(`${name} is not in ${file.source}`);
    return check(value, target, path, errors);
  }
  // kube decodes an explicit null as the field's absence
  if (value === null) return;
  if (schema.format === 'int-or-string') {
    if (typeof value === 'string' || Number.isInteger(value)) return;
    errors.push(`${where}: must be an integer or a string, not ${show(value)}`);
    return;
  }
  switch (schema.type) {
    case undefined:
      return; // arbitrary JSON
    case 'string':
      if (typeof value !== 'string') errors.push(`${where}: must be a string, not ${show(value)}`);
      else if (schema.format === 'byte' && !/^[A-Za-z0-9+/]*={0,2}$/.test(value))
        errors.push(`${where}: must be base64`);
      else if (schema.format === 'date-time' && Number.isNaN(Date.parse(value)))
        errors.push(`${where}: must be an RFC 3339 time, not ${show(value)}`);
      return;
    case 'integer':
      if (!Number.isInteger(value)) errors.push(`${where}: must be an integer, not ${show(value)}`);
      return;
    case 'number':
      if (typeof value !== 'number') errors.push(`${where}: must be a number, not ${show(value)}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') errors.push(`${where}: must be a boolean, not ${show(value)}`);
      return;
    case 'array':
      if (!Array.isArray(value)) {
        errors.push(`${where}: must be a list, not ${show(value)}`);
        return;
      }
      value.forEach((item, i) => check(item, schema.items ?? {}, `${path}[${i}]`, errors));
      return;
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        errors.push(`${where}: must be an object, not ${show(value)}`);
        return;
      }
      const fields = value as Record<string, unknown>;
      for (const field of schema.required ?? [])
        if (fields[field] === undefined || fields[field] === null)
          errors.push(`${at(path, field)}: required value`);
      const { properties, additionalProperties } = schema;
      for (const [field, v] of Object.entries(fields)) {
        const known = properties?.[field];
        if (known) check(v, known, at(path, field), errors);
        else if (typeof additionalProperties === 'object')
          check(v, additionalProperties, `${path}[${JSON.stringify(field)}]`, errors);
        // an object without properties (RawExtension, FieldsV1) holds anything
        else if (properties && additionalProperties !== true)
          errors.push(`${at(path, field)}: unknown field`);
      }
      return;
    }
    default:
      throw new Error(`${where}: type ${schema.type} unknown to the validator`);
  }
}
