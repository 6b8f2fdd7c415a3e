/**
 * kube's taint eviction controller (`taint-eviction-controller`, leader-elected): a pod on a node with a
 * NoExecute taint it does not tolerate is deleted at once; one it tolerates for a while is deleted when its
 * shortest tolerationSeconds has passed since the taint was added, unless the taint goes first. Before the
 * delete the pod gets kube's DisruptionTarget condition; the delete is the usual graceful one.
 */
import { nowTimestamp, systemContext, type KubeObject } from '../api/index.js';
import { isConflict, isNotFound, type Controller } from '../controllers/index.js';
import { storageKey, type GenericStore, type ResourceDefinition } from '../registry/index.js';
import { Informer, WorkQueue, type WatchCache } from '../watch/index.js';
import { noEvents, type RecordEvent } from './events.js';
import { PodsByNode } from './pods-by-node.js';
import { taintsOf } from './taints.js';
import { evictionDecision, tolerationsOf } from './tolerations.js';

export interface TaintEvictionOptions {
  recordEvent?: RecordEvent;
  log?: (message: string) => void;
  now?: () => number;
}

const keyOf = (pod: KubeObject) => `${pod.metadata.namespace}/${pod.metadata.name}`;

export class TaintEvictionController implements Controller {
  readonly name = 'taint-eviction-controller';
  readonly leaderElected = true;
  private pods!: ResourceDefinition;
  private podInformer?: Informer;
  private nodeInformer?: Informer;
  private readonly byNode = new PodsByNode();
  private readonly queue: WorkQueue;
  /** pod key → when its eviction is due (a timer waits for it) */
  private readonly due = new Map<string, { atMs: number; timer: NodeJS.Timeout }>();
  private readonly recordEvent: RecordEvent;
  private readonly log: (message: string) => void;
  private readonly now: () => number;

  constructor(
    private readonly cache: WatchCache,
    private readonly kind: (group: string, resource: string) => ResourceDefinition | undefined,
    private readonly generic: GenericStore,
    options: TaintEvictionOptions = {},
  ) {
    this.recordEvent = options.recordEvent ?? noEvents;
    this.log = options.log ?? (() => undefined);
    this.now = options.now ?? Date.now;
    this.queue = new WorkQueue((key) => this.sync(key), this.log);
  }

  async start(): Promise<void> {
    this.pods = this.kind('', 'pods')!;
    this.byNode.clear();
    this.nodeInformer = new Informer(this.cache, storageKey(this.kind('', 'nodes')!), (e) => {
      for (const pod of this.byNode.on(e.object.metadata.name!)) this.queue.add(keyOf(pod));
    });
    this.podInformer = new Informer(this.cache, storageKey(this.pods), (e) => {
      this.byNode.update(e.type, e.object);
      this.queue.add(keyOf(e.object));
    });
    await this.nodeInformer.start();
    await this.podInformer.start();
  }

  async stop(): Promise<void> {
    this.podInformer?.stop();
    this.nodeInformer?.stop();
    for (const d of this.due.values()) clearTimeout(d.timer);
    this.due.clear();
    await this.queue.stop();
  }

  private cancel(key: string, pod?: KubeObject): void {
    const d = this.due.get(key);
    if (!d) return;
    clearTimeout(d.timer);
    this.due.delete(key);
    if (pod) this.recordEvent(pod, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  private async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/');
    const pod = this.podInformer?.get(namespace, name);
    const nodeName = (pod?.spec as { nodeName?: string } | undefined)?.nodeName;
    if (!pod || !nodeName || pod.metadata.deletionTimestamp) return this.cancel(key);
    const node = this.nodeInformer!.get('', nodeName);
    const decision = evictionDecision(node ? taintsOf(node) : [], tolerationsOf(pod), this.now());
    if (decision.evict === 'never') return this.cancel(key, pod);
    if (decision.evict === 'at' && decision.atMs > this.now()) {
      if (this.due.get(key)?.atMs === decision.atMs) return;
      this.cancel(key);
      // a timer may fire a millisecond early: its entry goes first, so the next sync schedules again if need be
      const timer = setTimeout(() => {
        this.due.delete(key);
        this.queue.add(key);
      }, decision.atMs - this.now());
      timer.unref();
      this.due.set(key, { atMs: decision.atMs, timer });
      return;
    }
    this.cancel(key);
    await this.evict(pod);
  }

  private async evict(pod: KubeObject): Promise<void> {
    const { namespace, name, uid } = pod.metadata;
    this.recordEvent(pod, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${namespace}/${name}`);
    try {
      await this.generic.update(
        systemContext(),
        this.pods,
        namespace!,
        name!,
        (current) => {
          if (!current || current.metadata.uid !== uid) throw new Gone();
          const next = structuredClone(current);
          const status = (next.status ?? {}) as { conditions?: any[] };
          const conditions = (status.conditions ?? []).filter((c) => c?.type !== 'DisruptionTarget');
          conditions.push({
            type: 'DisruptionTarget',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: nowTimestamp(),
            reason: 'DeletionByTaintManager',
            message: 'Taint manager: deleting due to NoExecute taint',
          });
          next.status = { ...status, conditions };
          return next;
        },
        { subresource: 'status' },
      );
      await this.generic.delete(systemContext(), this.pods, namespace!, name!, { preconditions: { uid } });
    } catch (e) {
      if (e instanceof Gone || isNotFound(e) || isConflict(e)) return;
      throw e;
    }
  }
}

class Gone extends Error {}
