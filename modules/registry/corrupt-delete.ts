/**
 * kube's corruptObjectDeleter (KEP-3926, spec part1 "Deletion of an object" rules 2-6): a delete with
 * `ignoreStoreReadErrorWithClusterBreakingPotential` first makes sure the object is corrupt (one that reads
 * fine, or is absent, is refused: 422), tries the normal delete anyway, and when that fails because the object
 * is corrupt removes its row without reading it: no preconditions, no finalizers, no grace period, no
 * admission (kube's unsafe path admits everything). The DELETED change carries a tombstone (apiVersion, kind,
 * name, namespace) in place of the unreadable body, so every watch cache and informer forgets the key.
 */
import { ApiError, fieldError, groupVersion, type KubeObject } from '../api/index.js';
import {
  ConflictError,
  CorruptObjectError,
  NotFoundError,
  type ObjectKey,
  type Store,
} from '../storage/index.js';
import type { ResourceDefinition } from './definition.js';
import { toApiError } from './store-errors.js';

export const UNSAFE_DELETE_OPTION = 'ignoreStoreReadErrorWithClusterBreakingPotential';

/** attempts when the row changes between its read and its removal */
const RETRIES = 5;

/** kube's answer to the option on an object that can be read (or is not there): nothing corrupt to delete */
function notCorrupt(def: ResourceDefinition, name: string): ApiError {
  const error = ApiError.invalid(def.resource, def.group, name, [
    fieldError.invalid(
      UNSAFE_DELETE_OPTION,
      true,
      'is exclusively used to delete corrupt object(s), try again by removing this option',
    ),
  ]);
  // kube names the group-qualified resource (`leases.coordination.k8s.io "x" is invalid: ...`)
  if (!def.group) return error;
  return new ApiError(
    422,
    'Invalid',
    `${def.resource}.${def.group}${error.message.slice(def.resource.length)}`,
    {
      ...error.details,
    },
  );
}

/** what the DELETED change of a corrupt object carries: enough for a client to know which object went */
function tombstone(def: ResourceDefinition, key: ObjectKey): KubeObject {
  const owner = def.storedWith?.definition ?? def;
  const metadata: KubeObject['metadata'] = { name: key.name };
  if (key.namespace) metadata.namespace = key.namespace;
  return { apiVersion: groupVersion(owner.group, owner.storageVersion), kind: owner.kind, metadata };
}

async function corruption(store: Store, key: ObjectKey): Promise<CorruptObjectError | undefined> {
  try {
    await store.get(key);
    return undefined;
  } catch (e) {
    if (e instanceof CorruptObjectError) return e;
    throw e;
  }
}

/** Whether an answer of the normal delete is the corrupt object's (kube matches the message too). */
function failedOnCorruption(e: unknown): boolean {
  return e instanceof ApiError && e.code === 500 && e.message.includes('StorageError: corrupt object');
}

export interface UnsafeDeleteResult {
  /** the tombstone at the deletion revision; undefined when another delete removed the row first */
  object?: KubeObject;
}

/**
 * The unsafe delete of `key`. `normal` is the ordinary delete (expected to fail on the corrupt object); when it
 * succeeds after all (the row was repaired meanwhile) its answer wins.
 */
export async function deleteCorrupt<T>(
  store: Store,
  def: ResourceDefinition,
  key: ObjectKey,
  normal: () => Promise<T>,
): Promise<{ normal: T } | UnsafeDeleteResult> {
  const gr = { group: def.group, resource: def.resource };
  for (let i = 0; ; i++) {
    const corrupt = await corruption(store, key).catch((e: unknown) => {
      throw toApiError(e, gr, key.name);
    });
    if (!corrupt) throw notCorrupt(def, key.name);
    try {
      return { normal: await normal() };
    } catch (e) {
      if (!failedOnCorruption(e)) throw e;
    }
    try {
      const removed = await store.delete(key, corrupt.rv, tombstone(def, key));
      return { object: removed.object };
    } catch (e) {
      // the row is gone already: what was asked (kube answers success without an object)
      if (e instanceof NotFoundError) return {};
      // written in between: read it again (repaired, it is refused above; still corrupt, removed at its new rv)
      if (!(e instanceof ConflictError) || i >= RETRIES) throw toApiError(e, gr, key.name);
    }
  }
}
