/**
 * The current objects of one resource, by key `namespace\u0000name` and in key order, so that a page of a
 * list (all namespaces or one) is a binary search and a short walk: O(log n + page).
 */
import type { KubeObject } from '../api/object.js';

export function objectKey(namespace: string, name: string): string {
  return `${namespace}\u0000${name}`;
}

/** first index whose key is >= `key` */
function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class SortedIndex {
  private readonly byKey = new Map<string, KubeObject>();
  private keys: string[] = [];

  /** Bulk load (unsorted input), then sort once. */
  load(entries: [string, KubeObject][]): void {
    for (const [k, v] of entries) this.byKey.set(k, v);
    this.keys = [...this.byKey.keys()].sort();
  }

  get(key: string): KubeObject | undefined {
    return this.byKey.get(key);
  }

  set(key: string, obj: KubeObject): void {
    if (!this.byKey.has(key)) this.keys.splice(lowerBound(this.keys, key), 0, key);
    this.byKey.set(key, obj);
  }

  delete(key: string): void {
    if (!this.byKey.delete(key)) return;
    this.keys.splice(lowerBound(this.keys, key), 1);
  }

  /** [start, end) of the keys in a namespace (undefined: all), starting after `after` when given */
  range(namespace: string | undefined, after = ''): [number, number] {
    const prefix = namespace === undefined ? '' : `${namespace}\u0000`;
    let start = lowerBound(this.keys, prefix);
    const end = namespace === undefined ? this.keys.length : lowerBound(this.keys, `${namespace}\u0001`);
    if (after) start = Math.max(start, lowerBound(this.keys, after + '\u0000'));
    return [start, end];
  }

  keyAt(i: number): string {
    return this.keys[i];
  }

  at(i: number): KubeObject {
    return this.byKey.get(this.keys[i])!;
  }
}
