/**
 * How Go prints the generic JSON values kube's patch code works on (`map[string]interface{}` decoded with
 * integers kept as int64), so error texts read as kube's: `%v` of a map is `map[a:1 b:[x y]]` with sorted
 * keys, `%s` of a non-string is `%!s(int64=5)`, and reflect type names are `map[string]interface {}`.
 */
import { isObject, type JsonObject } from './json-value.js';

export type GoKind = 'string' | 'int64' | 'float64' | 'bool' | 'map' | 'slice' | 'nil';

const int64Limit = 2 ** 63;

export function goKind(value: unknown): GoKind {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') {
    return Number.isInteger(value) && Math.abs(value) < int64Limit ? 'int64' : 'float64';
  }
  return Array.isArray(value) ? 'slice' : 'map';
}

const typeNames: Record<GoKind, string> = {
  string: 'string',
  int64: 'int64',
  float64: 'float64',
  bool: 'bool',
  map: 'map[string]interface {}',
  slice: '[]interface {}',
  nil: '%!s(<nil>)',
};

/** `reflect.TypeOf(v)` printed with %s. */
export function goTypeName(value: unknown): string {
  return typeNames[goKind(value)];
}

/** strconv's shortest 'g' form, which fmt uses for %v of a float64 (exponent form from 1e+06 up). */
function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

function number(n: number): string {
  return goKind(n) === 'int64' ? String(n) : goFloat(n);
}

/** fmt's `%v`. */
export function goValue(value: unknown): string {
  switch (goKind(value)) {
    case 'nil':
      return '<nil>';
    case 'string':
      return value as string;
    case 'bool':
      return String(value);
    case 'int64':
    case 'float64':
      return number(value as number);
    case 'slice':
      return `[${(value as unknown[]).map(goValue).join(' ')}]`;
    case 'map': {
      const obj = value as JsonObject;
      const keys = Object.keys(obj).sort();
      return `map[${keys.map((k) => `${k}:${goValue(obj[k])}`).join(' ')}]`;
    }
  }
}

/** fmt's `%s`: strings as they are, other scalars flagged the way fmt flags a wrong verb. */
export function goString(value: unknown): string {
  switch (goKind(value)) {
    case 'nil':
      return '%!s(<nil>)';
    case 'string':
      return value as string;
    case 'bool':
      return `%!s(bool=${String(value)})`;
    case 'int64':
      return `%!s(int64=${number(value as number)})`;
    case 'float64':
      return `%!s(float64=${number(value as number)})`;
    case 'slice':
      return `[${(value as unknown[]).map(goString).join(' ')}]`;
    case 'map': {
      const obj = value as JsonObject;
      const keys = Object.keys(obj).sort();
      return `map[${keys.map((k) => `${k}:${goString(obj[k])}`).join(' ')}]`;
    }
  }
}

/** Go's `==` on two interface values holding decoded JSON: equal scalars of the same dynamic type. */
export function goEqual(a: unknown, b: unknown): boolean {
  if (isObject(a) || isObject(b) || Array.isArray(a) || Array.isArray(b)) return false;
  return goKind(a) === goKind(b) && (a ?? null) === (b ?? null);
}
