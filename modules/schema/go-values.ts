/**
 * How Go prints the JSON values of a custom resource in kube's messages. Custom resources are unstructured
 * in kube: integers are int64, other numbers float64, objects map[string]interface{} and lists
 * []interface{}; fmt prints those differently from JSON (`%v` of 1e6 as a float is `1e+06`, `%#v` of a map
 * is `map[string]interface {}{"a":1}`), and users compare these messages with kube's.
 */
import { goQuote } from '../api/index.js';

const int64Limit = 2 ** 63;

/** Whether kube's JSON decoding would hold `n` as an int64 (we cannot see `5.0` vs `5`: both are ints here). */
export function isGoInt(n: number): boolean {
  return Number.isInteger(n) && n >= -int64Limit && n < int64Limit;
}

/** `%v` of a float64 (strconv 'g', shortest): exponent form below 1e-4 and from 1e6 up (`1e+06`). */
export function goFloat(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  // toExponential() without an argument gives the shortest digits that read back as v
  const [mantissa, expText] = v.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(v);
}

/** `%v` of a number held by an unstructured object. */
export function goNumber(n: number): string {
  return isGoInt(n) ? String(n) : goFloat(n);
}

/** `%#v` of a value inside an unstructured object. */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
      return goNumber(v);
    case 'boolean':
      return String(v);
  }
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpV(obj[k])}`).join(', ')}}`;
}

/**
 * The value part of a field.Error message (ErrorBody): null as `"null"`, strings quoted, numbers and booleans
 * with `%v`, maps and lists with `%#v`.
 */
export function errorValueText(v: unknown): string {
  if (v === null || v === undefined) return '"null"';
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
      return goNumber(v);
    case 'boolean':
      return String(v);
  }
  return goSharpV(v);
}

/** Go's json.Marshal of an unstructured value (maps with sorted keys), as kube uses it in some messages. */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return isGoInt(v) ? String(v) : JSON.stringify(v);
  if (typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${goJSON(obj[k])}`).join(',')}}`;
}

/** reflect.DeepEqual of two unstructured values (numbers compare by value: we cannot tell int64 from 5.0). */
export function deepEqualJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqualJSON(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k in ao) {
    if (!Object.prototype.hasOwnProperty.call(bo, k) || !deepEqualJSON(ao[k], bo[k])) return false;
    n++;
  }
  for (const k in bo) if (Object.prototype.hasOwnProperty.call(bo, k)) n--;
  return n === 0;
}

/** `%v` of an unstructured value: strings bare, `<nil>`, `[a b]`, `map[a:1 b:2]`. */
export function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return goNumber(v);
    case 'boolean':
      return String(v);
  }
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `map[${keys.map((k) => `${k}:${goV(obj[k])}`).join(' ')}]`;
}

/**
 * go-openapi's IsFloat64AJSONInteger: an integer within ±(2^53-1), or a positive number within a relative
 * 1e-9 of the integer below it (so 0.3 / 0.1 counts as 3).
 */
export function isJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > 2 ** 53 - 1) return false;
  if (Number.isInteger(f)) return true;
  // Go truncates through uint64, which leaves negative fractions far from any integer
  if (f < 0) return false;
  const g = Math.trunc(f);
  if (g === 0) return false;
  return (f - g) / (f + g) < 1e-9;
}
