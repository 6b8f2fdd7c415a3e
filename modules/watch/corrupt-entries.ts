/**
 * The watch cache's corrupt rows: keys whose stored body storage could not decode as an object of its kind
 * (modules/storage corrupt.ts). They are kept apart from the objects, so informers, watchers and the cache's
 * pages never meet them; reads that would include them answer the error naming them instead (reads.ts in
 * modules/endpoints). A key leaves this set when a readable change (an update, a delete's tombstone) follows.
 */
import type { KubeObject } from '../api/index.js';
import type { Change, CorruptObjectError } from '../storage/index.js';
import type { CachedEvent } from './events.js';
import { objectKey } from './sorted-index.js';

export class CorruptEntries {
  /** storage key → object key → its error */
  private readonly byResource = new Map<string, Map<string, CorruptObjectError>>();

  set(resource: string, namespace: string, name: string, error: CorruptObjectError): void {
    let entries = this.byResource.get(resource);
    if (!entries) this.byResource.set(resource, (entries = new Map()));
    entries.set(objectKey(namespace, name), error);
  }

  delete(resource: string, namespace: string, name: string): void {
    const entries = this.byResource.get(resource);
    if (!entries?.delete(objectKey(namespace, name))) return;
    if (entries.size === 0) this.byResource.delete(resource);
  }

  at(resource: string, namespace: string, name: string): CorruptObjectError | undefined {
    return this.byResource.get(resource)?.get(objectKey(namespace, name));
  }

  /** the corrupt objects of a resource (in one namespace when given), in key order */
  in(resource: string, namespace?: string): CorruptObjectError[] {
    const entries = this.byResource.get(resource);
    if (!entries) return [];
    const keys = [...entries.keys()].filter(
      (k) => namespace === undefined || k.startsWith(`${namespace}\u0000`),
    );
    return keys.sort().map((k) => entries.get(k)!);
  }
}

/** `object` as it is at revision `rv`: a copy with that resourceVersion */
function atRevision(object: KubeObject, rv: number): KubeObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion: String(rv) } };
}

/**
 * The event a change of an unreadable body becomes, for watchers and history: an object that turned corrupt
 * (a change-log row SQL wrote) is gone for clients, a DELETED of its last readable state at the change's
 * revision, so their caches forget it; a key that was never readable has no event. A DELETED change whose body
 * is unreadable too (SQL again) carries the key's stub.
 */
export function unreadableEvent(
  change: Change,
  prev: KubeObject | undefined,
  at: number,
): CachedEvent | undefined {
  const { rv, resource, namespace, name } = change;
  if (!prev && change.type !== 'DELETED') return undefined;
  const object = prev ? atRevision(prev, rv) : change.object;
  return { rv, type: 'DELETED', resource, namespace, name, object, prev, at };
}
