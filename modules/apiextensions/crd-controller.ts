/**
 * The status of CRDs, as kube-apiserver's apiextensions controllers keep it: names accepted when free
 * (NamesAccepted), then Established; and a deleted CRD's cleanup (every custom resource deleted, then the
 * finalizer dropped so the CRD goes). Every replica runs it: the writes are idempotent, and a condition's
 * transition time moves only when its status does, so replicas agree instead of taking turns.
 */
import { isDeepStrictEqual } from 'node:util';
import { nowTimestamp, systemContext, type KubeObject } from '../api/index.js';
import { everything, type GenericStore, type Registry, type ResourceDefinition } from '../registry/index.js';
import { Informer, WorkQueue, type WatchCache } from '../watch/index.js';
import {
  acceptNames,
  cleanupFinalizer,
  crdGroup,
  establishedCondition,
  findCondition,
  setCondition,
  terminatingConditions,
  type BuiltinNames,
  type CRDCondition,
  type CustomResourceDefinition,
} from './crd/index.js';

/** how often a cleanup waiting on custom resources' own finalizers looks again */
const CLEANUP_RECHECK_MS = 1000;

const isNotFound = (e: unknown) => (e as { code?: number })?.code === 404;
const isConflict = (e: unknown) => (e as { code?: number })?.code === 409;

export class CrdController {
  private readonly informer: Informer;
  private readonly queue: WorkQueue;

  constructor(
    cache: WatchCache,
    private readonly registry: Registry,
    private readonly generic: GenericStore,
    /** the registered CRD kind (its strategies are the ones writes go through) */
    private readonly crdKind: ResourceDefinition,
    log: (message: string) => void,
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), log);
    this.informer = new Informer(cache, `${crdGroup}/customresourcedefinitions`, (e) => {
      // another CRD's names may have been waiting for these to be freed or taken
      if (e.type === 'DELETED' || !isDeepStrictEqual(e.object.spec, e.prev?.spec)) {
        for (const crd of this.informer.list()) this.queue.add(crd.metadata.name!);
      }
      if (e.type !== 'DELETED') this.queue.add(e.object.metadata.name!);
    });
  }

  start(): void {
    void this.informer.start();
  }

  async stop(): Promise<void> {
    this.informer.stop();
    await this.queue.stop();
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** Built-in kinds' names (CRDs may not take them): every registered kind no CRD declares. */
  private builtinNames(): BuiltinNames[] {
    return this.registry.definitions
      .filter((d) => !d.declaredServing)
      .map((d) => ({
        group: d.group,
        resource: d.resource,
        singular: d.singular,
        kind: d.kind,
        listKind: d.listKind,
        shortNames: d.shortNames,
      }));
  }

  private async sync(name: string): Promise<void> {
    const crd = this.informer.get('', name) as CustomResourceDefinition | undefined;
    if (!crd) return;
    if (crd.metadata.deletionTimestamp) return this.cleanUp(crd);
    const others = this.informer.list().filter((o) => o.metadata.name !== name) as CustomResourceDefinition[];
    const decision = acceptNames(crd, others, this.builtinNames());
    const next = structuredClone(crd);
    const now = nowTimestamp();
    next.status = { ...next.status, acceptedNames: decision.acceptedNames };
    setCondition(next, decision.namesAccepted, now);
    setCondition(next, decision.established, now);
    const established = establishedCondition(next);
    if (established) setCondition(next, established, now);
    await this.writeStatus(crd, next);
  }

  /** Every custom resource of a Terminating CRD is deleted; once none is left, its finalizer goes. */
  private async cleanUp(crd: CustomResourceDefinition): Promise<void> {
    if (!crd.metadata.finalizers?.includes(cleanupFinalizer)) return;
    const plural = crd.status?.acceptedNames?.plural;
    const def = plural && crd.spec.group ? this.registry.storedKind(crd.spec.group, plural) : undefined;
    let remaining = 0;
    if (def) {
      const list = await this.generic.list(def, '', everything, def.storageVersion);
      remaining = list.items.length;
      if (remaining > 0) await this.setTerminating(crd, terminatingConditions.inProgress);
      for (const item of list.items) {
        if (item.metadata.deletionTimestamp) continue;
        await this.generic
          .delete(systemContext(), def, item.metadata.namespace ?? '', item.metadata.name!, {})
          .catch((e) => {
            if (!isNotFound(e)) throw e;
          });
      }
    }
    if (remaining > 0) {
      this.queue.addAfter(crd.metadata.name!, CLEANUP_RECHECK_MS);
      return;
    }
    await this.setTerminating(crd, terminatingConditions.completed);
    await this.generic
      .update(
        systemContext(),
        this.crdKind,
        '',
        crd.metadata.name!,
        (current) => {
          const next = structuredClone(current!);
          next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== cleanupFinalizer);
          return next;
        },
        {},
      )
      .catch((e) => {
        if (!isNotFound(e)) throw e;
      });
  }

  private async setTerminating(crd: CustomResourceDefinition, condition: CRDCondition): Promise<void> {
    if (findCondition(crd, 'Terminating')?.reason === condition.reason) return;
    const next = structuredClone(crd);
    setCondition(next, condition, nowTimestamp());
    await this.writeStatus(crd, next);
  }

  /** Writes `next`'s status if it differs from what the cache held, through the status subresource. */
  private async writeStatus(crd: CustomResourceDefinition, next: CustomResourceDefinition): Promise<void> {
    if (isDeepStrictEqual(next.status, crd.status)) return;
    await this.generic
      .update(
        systemContext(),
        this.crdKind,
        '',
        crd.metadata.name!,
        (current) => {
          // computed from what the cache held: a newer object is looked at again when its event arrives
          if (current?.metadata.resourceVersion !== crd.metadata.resourceVersion) return current!;
          return { ...(current as KubeObject), status: next.status } as KubeObject;
        },
        { subresource: 'status' },
      )
      .catch((e) => {
        if (!isNotFound(e) && !isConflict(e)) throw e;
      });
  }
}
