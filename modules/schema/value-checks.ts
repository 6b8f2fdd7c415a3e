/** Small value checks of kube-openapi's validation, as Go computes them on unstructured values. */
import { deepEqualJSON, isGoInt } from './go-values.js';

export type JsonKind = 'null' | 'string' | 'number' | 'boolean' | 'array' | 'object';

export function kindOf(v: unknown): JsonKind {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
  }
  return Array.isArray(v) ? 'array' : 'object';
}

/** Go's utf8.RuneCountInString: code points, a lone surrogate counting as one. */
export function runeCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The enum check of kube-openapi: equal, or equal after Go's conversion of the value to the enum's type. */
export function enumMatches(v: unknown, e: unknown): boolean {
  if (deepEqualJSON(v, e)) return true;
  if (typeof v === 'number' && typeof e === 'number') {
    // a float value converts to an int64 enum value by truncation
    return isGoInt(e) && !isGoInt(v) && Math.trunc(v) === e;
  }
  if (typeof v === 'number' && typeof e === 'string' && isGoInt(v)) {
    // Go converts an integer to the string of that code point
    const cp = v >= 0 && v <= 0x10ffff && (v < 0xd800 || v > 0xdfff) ? v : 0xfffd;
    return String.fromCodePoint(cp) === e;
  }
  return false;
}

/** uniqueItems: whether two items are deeply equal */
export function hasDuplicates(list: unknown[]): boolean {
  for (let i = 1; i < list.length; i++)
    for (let j = 0; j < i; j++) if (deepEqualJSON(list[i], list[j])) return true;
  return false;
}
