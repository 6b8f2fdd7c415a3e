// Value helpers shared by the libraries and the cost model: sizes as cel-go counts them, ordering, equality.
import { Optional } from '@marcbachmann/cel-js';

interface DurationLike {
  seconds: bigint;
  nanos: number;
}

/** cel-js does not export its Duration class: known by name. */
export function isDuration(v: unknown): v is DurationLike {
  return v !== null && typeof v === 'object' && v.constructor?.name === 'Duration';
}

/** A CEL error raised by a library function: cel-js turns a thrown Error into the evaluation's error. */
export class CelRuntimeError extends Error {}

export function isPlainMap(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * cel-go's `actualSize`: strings count code points, bytes their length, lists and maps their entries; any
 * other value (numbers, library objects) is 1.
 */
export function sizeOf(v: unknown): number {
  if (typeof v === 'string') {
    let n = 0;
    for (const _ of v) n++;
    return n;
  }
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (isPlainMap(v)) return Object.keys(v).length;
  return 1;
}

function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (v !== null && typeof v === 'object' && v.constructor?.name === 'UnsignedInt') {
    return (v as { valueOf(): bigint }).valueOf();
  }
  return undefined;
}

/** Ordering of comparable CEL values (numbers, strings, bytes, bools, durations, timestamps). */
export function compareValues(a: unknown, b: unknown): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na < nb ? -1 : na > nb ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  }
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (isDuration(a) && isDuration(b)) {
    if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
    return Math.sign(a.nanos - b.nanos);
  }
  throw new CelRuntimeError('no such overload');
}

/** CEL equality for the values lists hold (used by indexOf and the sets functions). */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    // cross-type numeric equality (kube enables CrossTypeNumericComparisons)
    if (typeof na === 'number' || typeof nb === 'number') return Number(na) === Number(nb);
    return na === nb;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareValues(a, b) === 0;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (isDuration(a) && isDuration(b)) return compareValues(a, b) === 0;
  if (a instanceof Optional && b instanceof Optional) {
    if (!a.hasValue() || !b.hasValue()) return a.hasValue() === b.hasValue();
    return celEquals(a.value(), b.value());
  }
  if (isPlainMap(a) && isPlainMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && celEquals(a[k], b[k]));
  }
  const ea = a as { equals?: (o: unknown) => boolean } | null;
  if (ea && typeof ea === 'object' && typeof ea.equals === 'function') return ea.equals(b);
  return false;
}
