/**
 * The garbage collector's dependency graph: every object of the kinds it follows, by uid, and for each uid
 * the objects whose ownerReferences name it. It is fed the informers' events in revision order and answers
 * which objects must be looked at again after each (kube's graph builder). Owners are told apart by uid only:
 * a new object under a gone owner's name is another owner.
 *
 * Pure bookkeeping: no reads of the cache, no writes.
 */
import type { KubeObject, OwnerReference } from '../api/index.js';
import { isDeletingDependents, isOrphaning, ownerReferencesOf } from './garbage-collector-decisions.js';

export interface GraphNode {
  /** storage key of its kind (`<group>/<resource>`) */
  resource: string;
  object: KubeObject;
}

/** Work the graph asks for: look at an object again (`delete`), or orphan an owner's dependents (`orphan`). */
export interface Work {
  queue: 'delete' | 'orphan';
  uid: string;
}

const uidOf = (o: KubeObject): string => o.metadata.uid ?? '';

export class DependencyGraph {
  private readonly nodes = new Map<string, GraphNode>();
  /** owner uid → uids of the objects that name it (the owner need not exist) */
  private readonly owned = new Map<string, Set<string>>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  get size(): number {
    return this.nodes.size;
  }

  /** The objects that name `uid` as an owner, with their reference to it. */
  dependentsOf(uid: string): { node: GraphNode; ref: OwnerReference }[] {
    const out: { node: GraphNode; ref: OwnerReference }[] = [];
    for (const dependent of this.owned.get(uid) ?? []) {
      const node = this.nodes.get(dependent);
      const ref = node && ownerReferencesOf(node.object).find((r) => r.uid === uid);
      if (node && ref) out.push({ node, ref });
    }
    return out;
  }

  /** An object added or changed (ADDED, MODIFIED). */
  observe(resource: string, object: KubeObject): Work[] {
    const uid = uidOf(object);
    if (!uid) return [];
    const old = this.nodes.get(uid)?.object;
    this.nodes.set(uid, { resource, object });
    const before = old ? ownerReferencesOf(old) : [];
    const after = ownerReferencesOf(object);
    this.relink(uid, before, after);
    const work: Work[] = [];
    // new or changed references: whether the owners they name exist is checked on the object itself
    if (after.length > 0 && !sameReferences(before, after)) work.push({ queue: 'delete', uid });
    // an owner waiting for this object no longer has to once the reference (or its block) is gone
    for (const ref of before) {
      const now = after.find((r) => r.uid === ref.uid);
      if (ref.blockOwnerDeletion && !now?.blockOwnerDeletion) work.push(...this.waitingOwner(ref.uid));
    }
    if (isOrphaning(object) && !(old && isOrphaning(old))) work.push({ queue: 'orphan', uid });
    if (isDeletingDependents(object) && !(old && isDeletingDependents(old))) {
      for (const dependent of this.owned.get(uid) ?? []) work.push({ queue: 'delete', uid: dependent });
      work.push({ queue: 'delete', uid });
    }
    return work;
  }

  /** An object gone (DELETED): what it owned is looked at, and so are owners that waited for it. */
  forget(object: KubeObject): Work[] {
    const uid = uidOf(object);
    const node = this.nodes.get(uid);
    if (!node) return [];
    this.nodes.delete(uid);
    const refs = ownerReferencesOf(node.object);
    this.relink(uid, refs, []);
    const work: Work[] = [];
    for (const dependent of this.owned.get(uid) ?? []) work.push({ queue: 'delete', uid: dependent });
    for (const ref of refs) work.push(...this.waitingOwner(ref.uid));
    return work;
  }

  /** Forgets every object of a kind no longer followed (a CRD removed), asking for nothing. */
  dropResource(resource: string): void {
    for (const [uid, node] of this.nodes) {
      if (node.resource !== resource) continue;
      this.nodes.delete(uid);
      this.relink(uid, ownerReferencesOf(node.object), []);
    }
  }

  private waitingOwner(uid: string): Work[] {
    const owner = this.nodes.get(uid);
    return owner && isDeletingDependents(owner.object) ? [{ queue: 'delete', uid }] : [];
  }

  private relink(uid: string, before: OwnerReference[], after: OwnerReference[]): void {
    for (const ref of before) {
      if (after.some((r) => r.uid === ref.uid)) continue;
      const set = this.owned.get(ref.uid);
      set?.delete(uid);
      if (set?.size === 0) this.owned.delete(ref.uid);
    }
    for (const ref of after) {
      let set = this.owned.get(ref.uid);
      if (!set) this.owned.set(ref.uid, (set = new Set()));
      set.add(uid);
    }
  }
}

function sameReferences(a: OwnerReference[], b: OwnerReference[]): boolean {
  return a.length === b.length && a.every((r, i) => JSON.stringify(r) === JSON.stringify(b[i]));
}
