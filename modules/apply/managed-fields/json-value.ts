/**
 * JSON values as server-side apply sees them: the total order structured-merge-diff puts on values (it sorts
 * set members and list keys by it), value equality, and the exact bytes Go's encoding/json writes for a value
 * (FieldsV1 keys embed such JSON, so they must match kube byte for byte).
 */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The own property `key` of `obj` (never one inherited from Object.prototype). */
export function own(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets `obj[key]`, as an own property even for `__proto__`. */
export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

export function deepCopy<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

/** Go compares strings byte by byte in UTF-8, which is code point order (not UTF-16 unit order). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // surrogates encode code points above U+FFFF, which sort after every other BMP character
    const ka = ca >= 0xd800 && ca <= 0xdfff ? ca + 0x10000 : ca;
    const kb = cb >= 0xd800 && cb <= 0xdfff ? cb + 0x10000 : cb;
    return ka < kb ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isObject(v)) return 4;
  return 5; // null
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** structured-merge-diff's total order: numbers < strings < booleans < lists < maps < null. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return sign(ra - rb);
  if (typeof a === 'number') return sign(a - (b as number));
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a)) {
    const bl = b as unknown[];
    for (let i = 0; i < Math.min(a.length, bl.length); i++) {
      const c = compareValues(a[i], bl[i]);
      if (c !== 0) return c;
    }
    return sign(a.length - bl.length);
  }
  if (isObject(a)) {
    const bo = b as JsonObject;
    const ak = Object.keys(a).sort(compareStrings);
    const bk = Object.keys(bo).sort(compareStrings);
    for (let i = 0; i < Math.min(ak.length, bk.length); i++) {
      const c = compareStrings(ak[i], bk[i]) || compareValues(a[ak[i]], bo[bk[i]]);
      if (c !== 0) return c;
    }
    return sign(ak.length - bk.length);
  }
  return 0;
}

const htmlUnsafe = /[<>&\u2028\u2029]|\\ud[89a-f][0-9a-f]{2}/g;

function goString(s: string): string {
  // Go's encoding/json escapes HTML characters and line/paragraph separators; a lone surrogate (which Go
  // cannot even hold in a string) becomes U+FFFD
  return JSON.stringify(s).replace(htmlUnsafe, (m) =>
    m.startsWith('\\') ? '\\ufffd' : `\\u${m.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The bytes Go's json.Marshal writes for a decoded JSON value (map keys sorted, HTML escaped). */
export function goJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  const obj = value as JsonObject;
  const keys = Object.keys(obj).sort(compareStrings);
  return `{${keys.map((k) => `${goString(k)}:${goJson(obj[k])}`).join(',')}}`;
}

/** How structured-merge-diff prints a value inside a path (`[name="x"]`, `[=5]`). */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(valueText).join(',')}]`;
  if (isObject(value)) {
    return Object.keys(value)
      .map((k) => `${k}=${valueText(value[k])}`)
      .join('');
  }
  return String(value);
}
