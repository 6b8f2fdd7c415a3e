/**
 * JSON Pointers (RFC 6901) resolved the way kube's JSON patch library (evanphx/json-patch v4) resolves
 * them, since that decides which patches kube accepts:
 * - the text before the first `/` is ignored, so `a/b` means `/b`, and a pointer without any `/` (including
 *   the empty root pointer) names no container;
 * - `~1` decodes to `/` and `~0` to `~`, in one left-to-right pass;
 * - array indexes are Go integers (`+1`, `007` and negative indexes counting from the end are accepted);
 *   `-` is the position after the last element and only `add` accepts it.
 */
import { has, isObject, put, type JsonObject } from './json-value.js';

export function decodeToken(token: string): string {
  return token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** The container a pointer's last token addresses, and that token; undefined when it does not exist. */
export interface Target {
  container: JsonObject | unknown[];
  key: string;
}

/** Go's strconv.Atoi: an optional sign and decimal digits within int64. */
export function parseIndex(key: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(key)) return `strconv.Atoi: parsing "${key}": invalid syntax`;
  const n = Number(key);
  if (Math.abs(n) >= 2 ** 63) return `strconv.Atoi: parsing "${key}": value out of range`;
  return n;
}

const invalidIndex = (idx: number) => `Unable to access invalid index: ${idx}: invalid index referenced`;

/** The position `key` names in `arr` for reading, replacing or removing, or why there is none. */
export function existingIndex(arr: unknown[], key: string): number | string {
  const idx = parseIndex(key);
  if (typeof idx === 'string') return idx;
  if (idx < 0) {
    if (idx < -arr.length) return invalidIndex(idx);
    return idx + arr.length;
  }
  return idx >= arr.length ? invalidIndex(idx) : idx;
}

/** The position `key` names in `arr` for inserting, or why there is none. */
export function insertIndex(arr: unknown[], key: string): number | string {
  if (key === '-') return arr.length;
  const idx = parseIndex(key);
  if (typeof idx === 'string') return `value was not a proper array index: '${key}': ${idx}`;
  const size = arr.length + 1;
  if (idx >= size || idx < -size) return invalidIndex(idx);
  return idx < 0 ? idx + size : idx;
}

/** The child a token names, as the library reads it while walking: null and scalars lead nowhere. */
function child(node: JsonObject | unknown[], token: string): unknown {
  if (Array.isArray(node)) {
    const idx = existingIndex(node, token);
    return typeof idx === 'number' ? node[idx] : undefined;
  }
  return has(node, token) ? node[token] : undefined;
}

export function findTarget(doc: unknown, path: string): Target | undefined {
  const tokens = path.split('/');
  if (tokens.length < 2 || (!isObject(doc) && !Array.isArray(doc))) return undefined;
  let node: JsonObject | unknown[] = doc;
  for (const raw of tokens.slice(1, -1)) {
    const next = child(node, decodeToken(raw));
    if (!isObject(next) && !Array.isArray(next)) return undefined;
    node = next;
  }
  return { container: node, key: decodeToken(tokens[tokens.length - 1]) };
}

/** Reads the target: the value (undefined for a missing object member) or why the index is bad. */
export function readTarget(t: Target): { value: unknown } | { error: string } {
  if (!Array.isArray(t.container)) return { value: has(t.container, t.key) ? t.container[t.key] : undefined };
  const idx = existingIndex(t.container, t.key);
  return typeof idx === 'string' ? { error: idx } : { value: t.container[idx] };
}

/** Inserts (arrays) or sets (objects); returns why not, if it cannot. */
export function addAt(t: Target, value: unknown): string | undefined {
  if (!Array.isArray(t.container)) {
    put(t.container, t.key, value);
    return undefined;
  }
  const idx = insertIndex(t.container, t.key);
  if (typeof idx === 'string') return idx;
  t.container.splice(idx, 0, value);
  return undefined;
}

/** Overwrites an existing position (arrays) or sets a member (objects). */
export function setAt(t: Target, value: unknown): string | undefined {
  if (!Array.isArray(t.container)) {
    put(t.container, t.key, value);
    return undefined;
  }
  const idx = existingIndex(t.container, t.key);
  if (typeof idx === 'string') return idx;
  t.container[idx] = value;
  return undefined;
}

export function removeAt(t: Target): string | undefined {
  if (!Array.isArray(t.container)) {
    if (!has(t.container, t.key)) return `Unable to remove nonexistent key: ${t.key}: missing value`;
    delete t.container[t.key];
    return undefined;
  }
  const idx = existingIndex(t.container, t.key);
  if (typeof idx === 'string') return idx;
  t.container.splice(idx, 1);
  return undefined;
}
