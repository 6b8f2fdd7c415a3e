/**
 * Reading a CRD's schema as it arrived: a JSONSchemaProps may hold what our `Schema` type leaves out
 * (`$ref`, `id`, `definitions`, `items` as a list, `additionalProperties: false`), and validation must see it
 * to refuse it. Paths are kube's field.Path strings: `.child`, `[key]`, `[index]`.
 */
import type { Schema } from '../../api/index.js';

export type Raw = Record<string, unknown>;

export const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

export const raw = (s: Schema | Raw): Raw => s as unknown as Raw;

/** The value of `key` when it is a schema (an object), else undefined. */
export function subSchema(s: Raw, key: string): Raw | undefined {
  const v = s[key];
  return isRaw(v) ? v : undefined;
}

/** The schemas of a list-valued key (`allOf`, ...), skipping entries that are not objects. */
export function schemaList(s: Raw, key: string): Raw[] {
  const v = s[key];
  return Array.isArray(v) ? v.filter(isRaw) : [];
}

/** A map of schemas (`properties`, `definitions`, ...) as entries. */
export function schemaMap(s: Raw, key: string): [string, Raw][] {
  const v = s[key];
  if (!isRaw(v)) return [];
  return Object.entries(v).filter((e): e is [string, Raw] => isRaw(e[1]));
}

export const typeOf = (s: Raw | undefined): string => (typeof s?.type === 'string' ? s.type : '');
export const strOf = (v: unknown): string => (typeof v === 'string' ? v : '');
export const has = (s: Raw, key: string): boolean => s[key] !== undefined && s[key] !== null;
export const nonEmptyList = (v: unknown): boolean => Array.isArray(v) && v.length > 0;
export const nonEmptyMap = (v: unknown): boolean => isRaw(v) && Object.keys(v).length > 0;

export const child = (path: string, name: string): string => (path ? `${path}.${name}` : name);
export const key = (path: string, k: string): string => `${path}[${k}]`;
export const index = (path: string, i: number): string => `${path}[${i}]`;

const nestedOne = ['items', 'not', 'additionalProperties', 'additionalItems'];
const nestedLists = ['items', 'allOf', 'anyOf', 'oneOf'];
const nestedMaps = ['properties', 'patternProperties', 'definitions', 'dependencies'];

/** Calls `fn` on each schema nested directly in `s`, wherever JSON-Schema nests one; stops when it says true. */
export function someNested(s: Raw, fn: (n: Raw) => boolean): boolean {
  for (const k of nestedOne) {
    const v = s[k];
    if (isRaw(v) && fn(v)) return true;
  }
  for (const k of nestedLists) {
    const v = s[k];
    if (Array.isArray(v)) for (const x of v) if (isRaw(x) && fn(x)) return true;
  }
  for (const k of nestedMaps) {
    const v = s[k];
    if (isRaw(v)) for (const x of Object.values(v)) if (isRaw(x) && fn(x)) return true;
  }
  return false;
}

/** True when `pred` holds for the schema or any schema nested in it. */
export function schemaHas(s: Raw | undefined, pred: (s: Raw) => boolean): boolean {
  if (!s) return false;
  return pred(s) || someNested(s, (n) => schemaHas(n, pred));
}

/** Go's reflect.DeepEqual on decoded JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isRaw(a) && isRaw(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}
