/**
 * The objects tokens refer to, read from this replica's watch cache: no database round trip per request.
 * Only an object the cache does not hold is read from storage (kube's getter does a live read then too): it
 * may be another replica's write the cache has not seen yet, or a cache still filling at start.
 */
import type { Store } from '../../storage/index.js';
import type { WatchCache } from '../../watch/index.js';
import type { ObjectGetter } from './authenticator.js';

export function cachedObjects(cache: WatchCache, store: Store): ObjectGetter {
  return (resource, namespace, name) => {
    const key = `/${resource}`;
    const cached = cache.get(key, namespace, name);
    if (cached) return cached;
    return store.get({ resource: key, namespace, name }).then((found) => found?.object);
  };
}
