/**
 * The garbage collector's decisions, pure: given an object, the state of each owner it names and what it owns
 * itself, what must happen to it. The controller (garbage-collector.ts) gathers the facts from the watch cache
 * and carries the decision out; nothing here reads or writes.
 */
import type { KubeObject, OwnerReference } from '../api/index.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type PropagationPolicy } from '../registry/index.js';

/** What became of the owner a reference names. */
export type OwnerState =
  /** no object with the reference's uid where the owner would be (gone, or replaced under the same name) */
  | 'absent'
  /** there, and not deleting its dependents */
  | 'live'
  /** there, being deleted in the foreground: it waits for its dependents to go */
  | 'waiting'
  /**
   * cannot be told: a kind this server does not know (yet: a CRD may bring it), or a namespaced owner named
   * by a cluster-scoped object, which kube never resolves
   */
  | 'unresolvable';

/** One object the item owns, as far as the item's own decision needs it. */
export interface DependentView {
  uid: string;
  /** its reference to the item says blockOwnerDeletion: true */
  blocking: boolean;
  /** it is itself being deleted in the foreground */
  deletingDependents: boolean;
}

export interface ItemView {
  object: KubeObject;
  /** one state per entry of object.metadata.ownerReferences, in order */
  owners: OwnerState[];
  dependents: DependentView[];
}

export type Decision =
  | { action: 'none'; unresolvable?: true }
  /** foreground owner with no blocking dependent left: drop `foregroundDeletion`, and the owner goes */
  | { action: 'finishForeground' }
  /** foreground owner still blocked: look at these dependents (kube re-queues them; they may be new) */
  | { action: 'visitDependents'; uids: string[] }
  /** other owners still hold the item: take out the references to the gone and the waiting ones */
  | { action: 'removeReferences'; uids: string[] }
  /**
   * nobody holds the item any more. `unblock`: first make its own references non-blocking, because it and
   * a dependent of its own both wait in the foreground (a cycle kube breaks the same way).
   */
  | { action: 'delete'; policy: PropagationPolicy; unblock?: true };

/** The object's references; anything malformed (stored before validation knew better) is not one. */
export function ownerReferencesOf(o: KubeObject): OwnerReference[] {
  const refs: unknown = o.metadata.ownerReferences;
  if (!Array.isArray(refs)) return [];
  return refs.every(isReference) ? (refs as OwnerReference[]) : refs.filter(isReference);
}

function isReference(r: unknown): r is OwnerReference {
  const ref = r as OwnerReference | null;
  return (
    typeof ref === 'object' &&
    ref !== null &&
    typeof ref.uid === 'string' &&
    typeof ref.apiVersion === 'string'
  );
}
const has = (o: KubeObject, finalizer: string): boolean => !!o.metadata.finalizers?.includes(finalizer);
export const isDeleting = (o: KubeObject): boolean => !!o.metadata.deletionTimestamp;
/** deletionTimestamp and `foregroundDeletion`: its dependents go first */
export const isDeletingDependents = (o: KubeObject): boolean => isDeleting(o) && has(o, FOREGROUND_FINALIZER);
/** deletionTimestamp and `orphan`: its dependents lose their references to it first */
export const isOrphaning = (o: KubeObject): boolean => isDeleting(o) && has(o, ORPHAN_FINALIZER);

/** The policy an ownerless object is deleted with: the one its own GC finalizer asks for, else background. */
function ownPolicy(o: KubeObject): PropagationPolicy {
  if (has(o, ORPHAN_FINALIZER)) return 'Orphan';
  if (has(o, FOREGROUND_FINALIZER)) return 'Foreground';
  return 'Background';
}

/** What to do with one object, as kube's attemptToDeleteItem decides it. */
export function decide(item: ItemView): Decision {
  const { object } = item;
  // being deleted is a one-way trip; its dependents are looked at once it is gone
  if (isDeleting(object) && !isDeletingDependents(object)) return { action: 'none' };
  if (isDeletingDependents(object)) {
    const blocking = item.dependents.filter((d) => d.blocking);
    if (blocking.length === 0) return { action: 'finishForeground' };
    const uids = blocking.filter((d) => !d.deletingDependents).map((d) => d.uid);
    return uids.length > 0 ? { action: 'visitDependents', uids } : { action: 'none' };
  }
  const refs = ownerReferencesOf(object);
  if (refs.length === 0) return { action: 'none' };
  if (item.owners.includes('unresolvable')) return { action: 'none', unresolvable: true };
  const solid = refs.filter((_, i) => item.owners[i] === 'live');
  const gone = refs.filter((_, i) => item.owners[i] !== 'live');
  if (solid.length > 0) {
    // a waiting owner must lose its reference too, or it would wait for this object for ever
    if (gone.length === 0) return { action: 'none' };
    return { action: 'removeReferences', uids: gone.map((r) => r.uid) };
  }
  if (item.owners.includes('waiting') && item.dependents.length > 0) {
    const cycle = item.dependents.some((d) => d.deletingDependents);
    return cycle
      ? { action: 'delete', policy: 'Foreground', unblock: true }
      : { action: 'delete', policy: 'Foreground' };
  }
  return { action: 'delete', policy: ownPolicy(object) };
}

/** An orphaning owner's dependents: which references each must lose (those naming the owner's uid). */
export function withoutOwners(refs: OwnerReference[], uids: readonly string[]): OwnerReference[] {
  return refs.filter((r) => !uids.includes(r.uid));
}

/** The references with blockOwnerDeletion turned off (the cycle breaker of `decide`). */
export function unblocked(refs: OwnerReference[]): OwnerReference[] {
  return refs.map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r));
}
