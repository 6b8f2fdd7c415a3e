/**
 * A controller's view of one kind, as client-go's informer gives it, read from this replica's watch cache: no
 * request and no database round trip. Each change reaches `onEvent` in revision order; at start every current
 * object arrives as ADDED. When storage is lost the cache keeps its listeners and catches up afterwards, so
 * an informer misses nothing and needs no relist.
 */
import type { KubeObject } from '../api/index.js';
import type { ChangeType } from '../storage/index.js';
import type { CacheListener, WatchCache } from './watch-cache.js';

export interface InformerEvent {
  type: ChangeType;
  object: KubeObject;
  /** the state before (undefined for ADDED) */
  prev?: KubeObject;
}

export class Informer {
  private readonly listener: CacheListener;
  private stopped = false;

  /** `resource`: the storage key, `<group>/<resource>` (registry's `storageKey`) */
  constructor(
    private readonly cache: WatchCache,
    readonly resource: string,
    private readonly onEvent: (event: InformerEvent) => void,
  ) {
    this.listener = {
      resource,
      // the cached event is an InformerEvent already: handed over as it is, nothing made per change
      onEvent,
      flush: () => undefined,
      close: () => undefined,
    };
  }

  /** Resolves once the cache is filled and every current object was handed over (or the informer stopped). */
  async start(): Promise<void> {
    while (!this.cache.synced) {
      if (this.stopped) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    if (this.stopped) return;
    // listener and initial list in one turn of the event loop: no change falls between them
    this.cache.addListener(this.listener);
    for (const object of this.cache.list(this.resource)) this.onEvent({ type: 'ADDED', object });
  }

  stop(): void {
    this.stopped = true;
    this.cache.removeListener(this.listener);
  }

  list(namespace?: string): KubeObject[] {
    return this.cache.list(this.resource, namespace);
  }

  get(namespace: string, name: string): KubeObject | undefined {
    return this.cache.get(this.resource, namespace, name);
  }
}

/** `namespace/name` (or `name` for cluster objects): the work queue's key for an object. */
export function objectKeyOf(object: KubeObject): string {
  const ns = object.metadata.namespace;
  return ns ? `${ns}/${object.metadata.name}` : object.metadata.name!;
}

export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
