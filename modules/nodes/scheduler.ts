/**
 * The scheduler (`scheduler`, leader-elected), kube-scheduler's default profile in small: every pod without a
 * node whose schedulerName is default-scheduler and that has no scheduling gates is placed by scheduling.ts and
 * bound as pods/binding binds (Scheduled event); a pod that fits nowhere gets PodScheduled=False/Unschedulable
 * and a FailedScheduling event, and is tried again with kube's backoff (1 s doubling to 10 s) or as soon as a
 * node or another pod changes. No preemption, no volumes, no inter-pod affinity.
 */
import { systemContext, type KubeObject } from '../api/index.js';
import { isConflict, isNotFound, type Controller } from '../controllers/index.js';
import { boundPod } from '../kinds/index.js';
import { storageKey, type GenericStore, type ResourceDefinition } from '../registry/index.js';
import { Informer, WorkQueue, type WatchCache } from '../watch/index.js';
import { ApiError, nowTimestamp } from '../api/index.js';
import { noEvents, type RecordEvent } from './events.js';
import { PodsByNode } from './pods-by-node.js';
import { place } from './scheduling.js';

export const DEFAULT_SCHEDULER = 'default-scheduler';
const BACKOFF = { initialMs: 1_000, maxMs: 10_000 };

export interface SchedulerOptions {
  recordEvent?: RecordEvent;
  log?: (message: string) => void;
}

type PodSpec = { nodeName?: string; schedulerName?: string; schedulingGates?: unknown[] };
const specOf = (pod: KubeObject) => (pod.spec ?? {}) as PodSpec;
const keyOf = (pod: KubeObject) => `${pod.metadata.namespace}/${pod.metadata.name}`;

/** A pod this scheduler should place now. */
export function awaitsScheduling(pod: KubeObject): boolean {
  const spec = specOf(pod);
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return (
    !spec.nodeName &&
    (spec.schedulerName ?? DEFAULT_SCHEDULER) === DEFAULT_SCHEDULER &&
    !pod.metadata.deletionTimestamp &&
    (spec.schedulingGates ?? []).length === 0 &&
    phase !== 'Succeeded' &&
    phase !== 'Failed'
  );
}

export class Scheduler implements Controller {
  readonly name = 'scheduler';
  readonly leaderElected = true;
  private pods!: ResourceDefinition;
  private podInformer?: Informer;
  private nodeInformer?: Informer;
  private readonly placed = new PodsByNode();
  private readonly queue: WorkQueue;
  /** pods that fit nowhere: their next wait, and whether a change in the cluster should retry them */
  private readonly backoff = new Map<string, number>();
  private readonly recordEvent: RecordEvent;
  private readonly log: (message: string) => void;

  constructor(
    private readonly cache: WatchCache,
    private readonly kind: (group: string, resource: string) => ResourceDefinition | undefined,
    private readonly generic: GenericStore,
    options: SchedulerOptions = {},
  ) {
    this.recordEvent = options.recordEvent ?? noEvents;
    this.log = options.log ?? (() => undefined);
    this.queue = new WorkQueue((key) => this.schedule(key), this.log);
  }

  async start(): Promise<void> {
    this.pods = this.kind('', 'pods')!;
    this.placed.clear();
    this.backoff.clear();
    this.nodeInformer = new Informer(this.cache, storageKey(this.kind('', 'nodes')!), () =>
      this.retryWaiting(),
    );
    this.podInformer = new Informer(this.cache, storageKey(this.pods), (e) => {
      const freed = this.placed.update(e.type, e.object);
      if (e.type !== 'DELETED' && awaitsScheduling(e.object)) {
        if (!this.backoff.has(keyOf(e.object))) this.queue.add(keyOf(e.object));
      } else this.backoff.delete(keyOf(e.object));
      // a pod leaving a node makes room there
      if (freed && (e.type === 'DELETED' || !this.placed.on(freed).includes(e.object))) this.retryWaiting();
    });
    await this.nodeInformer.start();
    await this.podInformer.start();
  }

  async stop(): Promise<void> {
    this.podInformer?.stop();
    this.nodeInformer?.stop();
    await this.queue.stop();
  }

  /** kube moves unschedulable pods back to the active queue when the cluster changes */
  private retryWaiting(): void {
    for (const key of this.backoff.keys()) this.queue.add(key);
  }

  private async schedule(key: string): Promise<void> {
    const [namespace, name] = key.split('/');
    const pod = this.podInformer?.get(namespace, name);
    if (!pod || !awaitsScheduling(pod)) {
      this.backoff.delete(key);
      return;
    }
    const nodes = this.nodeInformer!.list();
    const placement = place(pod, nodes, (node) => this.placed.on(node));
    if ('node' in placement) return this.bind(pod, placement.node);
    await this.unschedulable(pod, placement.unschedulable);
    const wait = this.backoff.get(key) ?? BACKOFF.initialMs;
    this.backoff.set(key, Math.min(wait * 2, BACKOFF.maxMs));
    this.queue.addAfter(key, wait);
  }

  private async bind(pod: KubeObject, node: string): Promise<void> {
    const { namespace, name, uid } = pod.metadata;
    try {
      const result = await this.generic.update(
        systemContext(),
        this.pods,
        namespace!,
        name!,
        (current) => {
          if (!current || current.metadata.uid !== uid)
            throw ApiError.notFound({ group: '', resource: 'pods' }, name!);
          return boundPod(current, node, undefined);
        },
        { subresource: 'binding' },
      );
      this.backoff.delete(keyOf(pod));
      // counted on the node at once: the next pod in the queue must not take the same room
      this.placed.update('MODIFIED', result.object);
      this.recordEvent(
        pod,
        'Normal',
        'Scheduled',
        `Successfully assigned ${namespace}/${name} to ${node}`,
        'Binding',
      );
    } catch (e) {
      // deleted or bound by someone else meanwhile: the informer brings the news
      if (isNotFound(e) || isConflict(e)) return;
      throw e;
    }
  }

  /** PodScheduled=False with the reason, as kube's scheduler reports a pod that fits nowhere. */
  private async unschedulable(pod: KubeObject, message: string): Promise<void> {
    const { namespace, name, uid } = pod.metadata;
    this.recordEvent(pod, 'Warning', 'FailedScheduling', message, 'Scheduling');
    const condition = {
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: nowTimestamp(),
      reason: 'Unschedulable',
      message,
    };
    await this.generic
      .update(
        systemContext(),
        this.pods,
        namespace!,
        name!,
        (current) => {
          if (!current || current.metadata.uid !== uid || !awaitsScheduling(current))
            throw ApiError.notFound({ group: '', resource: 'pods' }, name!);
          const next = structuredClone(current);
          const status = (next.status ?? {}) as { conditions?: any[] };
          const conditions = (status.conditions ?? []).filter((c) => c?.type !== 'PodScheduled');
          const before = (status.conditions ?? []).find((c) => c?.type === 'PodScheduled');
          const same = before?.status === 'False' && before.reason === condition.reason;
          conditions.push(same ? { ...condition, lastTransitionTime: before.lastTransitionTime } : condition);
          next.status = { ...status, conditions };
          return next;
        },
        { subresource: 'status' },
      )
      .catch((e: unknown) => {
        if (!isNotFound(e) && !isConflict(e)) throw e;
      });
  }
}
