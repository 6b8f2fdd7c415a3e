/**
 * Discovery and OpenAPI documents depend only on the set of definitions (and, on an aggregation host, on what
 * the remote servers publish). Callers pass the same array instance until the definitions change (a CRD is
 * added, ...), so results are cached per object identity and freed with it; `pairKey` makes one identity of two.
 * Cached values are shared between requests, so they are frozen: a caller that mutates one fails loudly.
 */
const caches = new WeakMap<object, Map<string, unknown>>();

export function memo<T>(owner: object, key: string, build: () => T): T {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new Map();
    caches.set(owner, cache);
  }
  if (cache.has(key)) return cache.get(key) as T;
  const value = deepFreeze(build());
  cache.set(key, value);
  return value;
}

const pairs = new WeakMap<object, WeakMap<object, object>>();

/** One object per pair (a, b), alive while both are: a memo owner for documents built from both. */
export function pairKey(a: object, b: object): object {
  let inner = pairs.get(a);
  if (!inner) pairs.set(a, (inner = new WeakMap()));
  let key = inner.get(b);
  if (!key) inner.set(b, (key = Object.freeze({})));
  return key;
}

/** Bytes (a Protobuf document) cannot be frozen: they are shared as they are. */
function deepFreeze<T>(value: T): T {
  if (ArrayBuffer.isView(value)) return value;
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** How many documents are cached for `owner` (specs check that requests for unknown names add none). */
export function memoSize(owner: object): number {
  return caches.get(owner)?.size ?? 0;
}
