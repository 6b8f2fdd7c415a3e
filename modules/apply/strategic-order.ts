/**
 * Element order after a strategic list merge, following kube's rules: the elements named in the patch (or
 * in `$setElementOrder`) keep the patch's relative order, the elements only the server has keep theirs, and
 * the two runs are interleaved using the server's order where both sides know an element. Elements are
 * identified by their merge-key value (lists of maps) or by value (lists of scalars), compared as Go
 * compares interface values.
 */
import { goKind } from './go-format.js';
import { get, has, isObject } from './json-value.js';
import { errors } from './strategic-errors.js';

/** The identity of an element: its merge-key value (missing reads as nil) or the scalar itself. */
function identity(item: unknown, mergeKey: string, ofMaps: boolean): unknown {
  if (!ofMaps) return item;
  return isObject(item) ? (get(item, mergeKey) ?? null) : null;
}

/** A hashable form of a comparable identity; objects and lists never equal anything. */
export function hashKey(id: unknown): string | undefined {
  const kind = goKind(id);
  if (kind === 'map' || kind === 'slice') return undefined;
  return `${kind}:${String(id ?? '')}`;
}

/** kube's index(): the first position of an element with the same identity, or -1. */
export function indexer(list: unknown[], mergeKey: string, ofMaps: boolean): (item: unknown) => number {
  const first = new Map<string, number>();
  list.forEach((v, i) => {
    const key = hashKey(identity(v, mergeKey, ofMaps));
    if (key !== undefined && !first.has(key)) first.set(key, i);
  });
  return (item) => {
    const key = hashKey(identity(item, mergeKey, ofMaps));
    return key === undefined ? -1 : (first.get(key) ?? -1);
  };
}

/** Each element must be a map holding the merge key. */
export function requireMergeKey(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isObject(item)) throw errors.badArgType('map', item);
      if (!has(item, mergeKey)) throw errors.noMergeKey(item, mergeKey);
    }
  }
}

function isDeleteDirective(item: unknown): boolean {
  return isObject(item) && get(item, '$patch') === 'delete';
}

/** Sorts `items` by their position in `order` (stable); deletion directives go last. */
function sortByOrder(items: unknown[], order: unknown[], mergeKey: string, ofMaps: boolean): unknown[] {
  let kept = items;
  let deletions: unknown[] = [];
  if (ofMaps) {
    requireMergeKey(mergeKey, items, order);
    kept = items.filter((v) => !isDeleteDirective(v));
    deletions = items.filter(isDeleteDirective);
  }
  const indexOf = indexer(order, mergeKey, ofMaps);
  const sorted = kept
    .map((item, i) => ({ item, i, at: indexOf(item) }))
    .sort((a, b) => (a.at >= 0 && b.at >= 0 && a.at !== b.at ? a.at - b.at : a.i - b.i))
    .map((e) => e.item);
  return [...sorted, ...deletions];
}

/**
 * Orders the final list: `patchItems` by `patchOrder`, `serverOnly` by `serverOrder`, then interleaves them:
 * a server-only element goes first only when the server order puts it before the next patch element.
 */
export function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  ofMaps: boolean,
): unknown[] {
  const right = sortByOrder(patchItems, patchOrder, mergeKey, ofMaps);
  const left = sortByOrder(serverOnly, serverOrder, mergeKey, ofMaps);
  const serverIndex = indexer(serverOrder, mergeKey, ofMaps);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]);
    else if (i >= left.length) out.push(right[j++]);
    else {
      const li = serverIndex(left[i]);
      const ri = serverIndex(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** Splits scalars into those present in `by` and the rest, keeping their order. */
export function partitionScalars(list: unknown[], by: unknown[]): [unknown[], unknown[]] {
  const present = indexer(by, '', false);
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of list) (present(v) >= 0 ? inPatch : serverOnly).push(v);
  return [inPatch, serverOnly];
}

/** Splits maps into those whose merge-key value appears in `by` and the rest, keeping their order. */
export function partitionMaps(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const firstNonMap = by.findIndex((v) => !isObject(v));
  // only maps that hold the merge key can match (kube needs the key present, even when it is null)
  const firstAt = new Map<string, number>();
  by.forEach((v, i) => {
    if (!isObject(v) || !has(v, mergeKey)) return;
    const key = hashKey(v[mergeKey] ?? null);
    if (key !== undefined && !firstAt.has(key)) firstAt.set(key, i);
  });
  const position = (v: Record<string, unknown>) => {
    const key = hashKey(v[mergeKey] ?? null);
    return key === undefined ? -1 : (firstAt.get(key) ?? -1);
  };
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of list) {
    if (!isObject(v)) throw errors.badArgType('map', v);
    if (!has(v, mergeKey)) throw errors.noMergeKey(v, mergeKey);
    const at = position(v);
    // kube scans `by` in order and stops at the first element that is not a map
    if (firstNonMap >= 0 && (at < 0 || firstNonMap < at)) throw errors.notAMap(firstNonMap);
    (at >= 0 ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

/** Scalars with duplicates removed (first occurrence kept). */
export function dedupeScalars(list: unknown[]): unknown[] {
  const seen = indexer(list, '', false);
  return list.filter((v, i) => {
    const at = seen(v);
    return at < 0 || at === i;
  });
}
