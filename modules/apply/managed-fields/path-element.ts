/**
 * One step of a field path, as structured-merge-diff names them: a struct field or map key (`f:name`), a list
 * item picked by its key fields (`k:{"name":"x"}`), a set member picked by value (`v:"x"`), or a list item
 * picked by position (`i:0`). Their FieldsV1 spelling, their order, and how kube prints them in messages.
 */
import { compareStrings, compareValues, goJson, isObject, valueText } from './json-value.js';

export type KeyField = readonly [name: string, value: unknown];

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export const field = (name: string): PathElement => ({ kind: 'field', name });

/** A key element; its fields are kept sorted by name, as kube sorts them. */
export function key(fields: Iterable<KeyField> | Record<string, unknown>): PathElement {
  const list: KeyField[] = Symbol.iterator in fields ? [...(fields as Iterable<KeyField>)] : [];
  if (!(Symbol.iterator in fields)) {
    for (const [n, v] of Object.entries(fields)) list.push([n, v]);
  }
  list.sort((a, b) => compareStrings(a[0], b[0]));
  return { kind: 'key', fields: list };
}

export const value = (v: unknown): PathElement => ({ kind: 'value', value: v });
export const index = (i: number): PathElement => ({ kind: 'index', index: i });

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

/** Fields first, then keys, then values, then indexes; each ordered by its content. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] - kindRank[b.kind];
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key': {
      const bf = (b as typeof a).fields;
      for (let i = 0; i < Math.min(a.fields.length, bf.length); i++) {
        const c = compareStrings(a.fields[i][0], bf[i][0]) || compareValues(a.fields[i][1], bf[i][1]);
        if (c !== 0) return c;
      }
      return Math.sign(a.fields.length - bf.length);
    }
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return Math.sign(a.index - (b as typeof a).index);
  }
}

/** The FieldsV1 key of an element (also its identity: equal elements have equal keys). */
export function serializeElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.fields.map(([n, v]) => `${goJson(n)}:${goJson(v)}`).join(',')}}`;
    case 'value':
      return `v:${goJson(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

export class PathElementError extends Error {}

/**
 * Parses a FieldsV1 key. Returns undefined for element types this version does not know (kube drops those
 * silently so that newer writers do not break older readers); throws for malformed keys.
 */
export function parseElement(s: string): PathElement | undefined {
  if (s.length < 2) throw new PathElementError('key must be 2 characters long:');
  if (s[1] !== ':') throw new PathElementError(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return field(body);
    case 'v':
      return value(parseJson(body));
    case 'k': {
      const obj = parseJson(body);
      if (!isObject(obj)) throw new PathElementError(`key element is not an object: ${body}`);
      return key(obj);
    }
    case 'i':
      if (!/^[+-]?\d+$/.test(body)) {
        throw new PathElementError(`strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`);
      }
      return index(Number(body));
    default:
      return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new PathElementError((err as Error).message);
  }
}

/** How kube prints an element in messages: `.name`, `[name="x",port=80]`, `[="x"]`, `[0]`. */
export function elementText(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map(([n, v]) => `${n}=${valueText(v)}`).join(',')}]`;
    case 'value':
      return `[=${valueText(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

export function pathText(path: Path): string {
  return path.map(elementText).join('');
}

/** A path from plain steps: strings are fields, numbers indexes, other elements as given. */
export function makePath(...steps: Array<string | number | PathElement>): Path {
  return steps.map((s) => (typeof s === 'string' ? field(s) : typeof s === 'number' ? index(s) : s));
}
