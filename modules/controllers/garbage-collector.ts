/**
 * kube's garbage collector: objects whose owners (metadata.ownerReferences) are all gone are deleted, for
 * every stored kind, CRDs included as they come and go. Owners deleted with `propagationPolicy: Foreground`
 * (finalizer `foregroundDeletion`) wait until their blocking dependents are gone; owners deleted with
 * `Orphan` (finalizer `orphan`) first take themselves out of their dependents' references. The apiserver side
 * (which finalizer a delete sets) is modules/registry/deletion.ts.
 *
 * Everything is read from this replica's watch cache (an informer per kind, the owners looked up by name and
 * uid), so a decision costs no database round trip; writes go through the generic store, bound to the uid
 * and revision the decision was made on. Every replica runs it: two replicas deleting the same dependent
 * find it gone or changed, which is harmless.
 */
import type { KubeObject, OwnerReference } from '../api/index.js';
import {
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
  storageKey,
  type GenericStore,
  type Registry,
  type RegistryEvent,
  type ResourceDefinition,
} from '../registry/index.js';
import { Informer, type InformerEvent, type WatchCache } from '../watch/index.js';
import type { Controller } from './controller.js';
import {
  decide,
  isDeletingDependents,
  isOrphaning,
  ownerReferencesOf,
  unblocked,
  withoutOwners,
  type Decision,
} from './garbage-collector-decisions.js';
import { DependencyGraph, type GraphNode, type Work } from './garbage-collector-graph.js';
import { OwnerResolver } from './garbage-collector-owners.js';
import { Workers } from './garbage-collector-workers.js';
import { CollectorWrites } from './garbage-collector-writes.js';

/** workers per queue: writes of different objects go to storage together, in one batch */
const WORKERS = 16;
/** a write that lost a race is decided again after this long, on the cache's newer state */
const RETRY_MS = 50;
/** an orphaning owner's dependents are rewritten this many at a time */
const ORPHAN_BATCH = 64;

/** Kinds the collector follows: those it can list, watch and delete (kube's "deletable resources"). */
function collectable(def: ResourceDefinition): boolean {
  return (['delete', 'list', 'watch'] as const).every((v) => def.verbs.includes(v));
}

export class GarbageCollector implements Controller {
  readonly name = 'garbagecollector';
  private readonly graph = new DependencyGraph();
  private readonly informers = new Map<string, Informer>();
  private readonly owners: OwnerResolver;
  private readonly writes: CollectorWrites;
  private readonly deletes: Workers;
  private readonly orphans: Workers;
  /** work found before every kind's informer had started: the graph was not whole yet */
  private pending?: Work[] = [];
  /** objects naming an owner of a kind not known here: looked at again when the registry changes */
  private readonly unresolved = new Set<string>();
  private unsubscribe?: () => void;
  private stopped = false;

  constructor(
    private readonly cache: WatchCache,
    private readonly registry: Registry,
    generic: GenericStore,
    private readonly log: (message: string) => void,
  ) {
    this.owners = new OwnerResolver(registry, cache);
    this.writes = new CollectorWrites(registry, generic);
    this.deletes = new Workers(WORKERS, (uid) => this.attemptToDelete(uid), log);
    this.orphans = new Workers(WORKERS, (uid) => this.orphanDependents(uid), log);
  }

  start(): void {
    this.unsubscribe = this.registry.subscribe((e) => this.kindChanged(e));
    const first = this.registry.stored.filter(collectable).map((def) => this.follow(def));
    void Promise.all(first)
      .then(() => {
        const work = this.pending ?? [];
        this.pending = undefined;
        for (const w of work) this.enqueue(w);
      })
      .catch((e) => this.log(`garbage collector: ${(e as Error).message}`));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    for (const informer of this.informers.values()) informer.stop();
    this.informers.clear();
    await Promise.all([this.deletes.stop(), this.orphans.stop()]);
  }

  /** Resolves once no work waits (tests). */
  async idle(): Promise<void> {
    await Promise.all([this.deletes.idle(), this.orphans.idle()]);
  }

  private follow(def: ResourceDefinition): Promise<void> {
    const resource = storageKey(def);
    if (this.informers.has(resource)) return Promise.resolve();
    const informer = new Informer(this.cache, resource, (e) => this.observed(resource, e));
    this.informers.set(resource, informer);
    return informer.start();
  }

  private unfollow(resource: string): void {
    this.informers.get(resource)?.stop();
    this.informers.delete(resource);
    this.graph.dropResource(resource);
  }

  /** A kind came, changed or went: follow it, and retry the objects whose owners' kinds were unknown. */
  private kindChanged(e: RegistryEvent): void {
    if (this.stopped) return;
    this.owners.invalidate();
    const resource = storageKey(e.definition);
    if (e.type !== 'removed' && collectable(e.definition))
      void this.follow(e.definition).catch((err) => this.log(`garbage collector: ${(err as Error).message}`));
    else if (this.informers.has(resource)) this.unfollow(resource);
    const retry = [...this.unresolved];
    this.unresolved.clear();
    for (const uid of retry) this.enqueue({ queue: 'delete', uid });
  }

  /** Runs inside the watch cache's feed: it must not throw there, whatever the object holds. */
  private observed(resource: string, e: InformerEvent): void {
    if (this.stopped) return;
    try {
      const work =
        e.type === 'DELETED' ? this.graph.forget(e.object) : this.graph.observe(resource, e.object);
      for (const w of work) this.enqueue(w);
    } catch (err) {
      this.log(`garbage collector: ${resource} ${e.object.metadata?.name}: ${(err as Error).message}`);
    }
  }

  private enqueue(w: Work): void {
    if (this.pending) this.pending.push(w);
    else (w.queue === 'delete' ? this.deletes : this.orphans).add(w.uid);
  }

  /** kube's attemptToDeleteItem: decide on the object's current state in the cache, then act. */
  private async attemptToDelete(uid: string): Promise<void> {
    const node = this.graph.get(uid);
    if (!node) return;
    const decision = decide({
      object: node.object,
      owners: ownerReferencesOf(node.object).map((ref) => this.owners.state(node.object, ref)),
      dependents: this.graph.dependentsOf(uid).map(({ node: d, ref }) => ({
        uid: d.object.metadata.uid!,
        blocking: !!ref.blockOwnerDeletion,
        deletingDependents: isDeletingDependents(d.object),
      })),
    });
    await this.act(node, decision);
  }

  private async act(node: GraphNode, decision: Decision): Promise<void> {
    const uid = node.object.metadata.uid!;
    switch (decision.action) {
      case 'none':
        if (decision.unresolvable) this.unresolved.add(uid);
        return;
      case 'visitDependents':
        for (const dependent of decision.uids) this.deletes.add(dependent);
        return;
      case 'finishForeground':
        await this.writes.removeFinalizer(node, FOREGROUND_FINALIZER);
        return;
      case 'removeReferences': {
        const uids = decision.uids;
        await this.writes.rewrite(node, (o) => setReferences(o, withoutOwners(ownerReferencesOf(o), uids)));
        return;
      }
      case 'delete': {
        let target: GraphNode | undefined = node;
        if (decision.unblock) {
          const written = await this.writes.rewrite(node, (o) =>
            setReferences(o, unblocked(ownerReferencesOf(o))),
          );
          target = written && { resource: node.resource, object: written };
        }
        const outcome = target ? await this.writes.delete(target, decision.policy) : 'gone';
        if (outcome === 'changed') this.deletes.later(uid, RETRY_MS);
        return;
      }
    }
  }

  /**
   * kube's attemptToOrphan: every dependent loses its references to the owner, then the owner loses its
   * `orphan` finalizer (and goes, unless other finalizers hold it).
   */
  private async orphanDependents(uid: string): Promise<void> {
    const owner = this.graph.get(uid);
    if (!owner || !isOrphaning(owner.object)) return;
    const dependents = this.graph.dependentsOf(uid).map(({ node }) => node);
    for (let i = 0; i < dependents.length; i += ORPHAN_BATCH) {
      await Promise.all(
        dependents
          .slice(i, i + ORPHAN_BATCH)
          .map((d) =>
            this.writes.rewrite(d, (o) => setReferences(o, withoutOwners(ownerReferencesOf(o), [uid]))),
          ),
      );
    }
    await this.writes.removeFinalizer(owner, ORPHAN_FINALIZER);
  }
}

/** Puts `refs` in place of the object's references; false when they are the same (nothing to write). */
function setReferences(o: KubeObject, refs: OwnerReference[]): boolean {
  const before = ownerReferencesOf(o);
  if (JSON.stringify(before) === JSON.stringify(refs)) return false;
  if (refs.length > 0) o.metadata.ownerReferences = refs;
  else delete o.metadata.ownerReferences;
  return true;
}
