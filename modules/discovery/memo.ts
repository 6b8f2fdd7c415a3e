/**
 * Discovery and OpenAPI documents depend only on the set of definitions. Callers pass the same array instance
 * until the definitions change (a CRD is added, ...), so results are cached per array identity and freed with it.
 * Cached values are shared between requests, so they are frozen: a caller that mutates one fails loudly.
 */
import type { ResourceDefinition } from '../registry/index.js';

const caches = new WeakMap<readonly ResourceDefinition[], Map<string, unknown>>();

export function memo<T>(defs: readonly ResourceDefinition[], key: string, build: () => T): T {
  let cache = caches.get(defs);
  if (!cache) {
    cache = new Map();
    caches.set(defs, cache);
  }
  if (cache.has(key)) return cache.get(key) as T;
  const value = deepFreeze(build());
  cache.set(key, value);
  return value;
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

/** How many documents are cached for `defs` (specs check that requests for unknown names add none). */
export function memoSize(defs: readonly ResourceDefinition[]): number {
  return caches.get(defs)?.size ?? 0;
}
