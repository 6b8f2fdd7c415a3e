/**
 * Plain JSON values as JSON.parse produces them, and the few operations every patch format needs. Keys are
 * read with own-property checks and written with defineProperty for `__proto__`, so a patch can never reach
 * Object.prototype.
 */
import { ApiError } from '../api/index.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function has(obj: JsonObject, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/** The own value at `key`, or undefined. */
export function get(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

export function put(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** Go's encoding/json gives up at this nesting depth; deeper input is malformed for kube too. */
const maxDepth = 10000;

function tooDeep(): ApiError {
  return ApiError.badRequest('json: exceeded max depth');
}

/** A deep copy, so the patch algorithms may change their working values freely. */
export function deepClone<T>(value: T, depth = 0): T {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > maxDepth) throw tooDeep();
  if (Array.isArray(value)) return value.map((v) => deepClone(v, depth + 1)) as T;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) put(out, key, deepClone((value as JsonObject)[key], depth + 1));
  return out as T;
}

/** Structural equality; object key order does not matter, null differs from a missing key. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ka = Object.keys(a);
  const bo = b as JsonObject;
  if (ka.length !== Object.keys(bo).length) return false;
  return ka.every((k) => Object.hasOwn(bo, k) && deepEqual((a as JsonObject)[k], bo[k]));
}

/** UTF-8 size of a value's JSON text (what Go measures when it limits copies). */
export function jsonSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');
}

/**
 * Runs a patch algorithm, turning a stack overflow on absurdly nested input into the 400 kube's decoder
 * gives for it, so bad input never surfaces as a 500.
 */
export function guardDepth<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof RangeError) throw tooDeep();
    throw err;
  }
}
