/**
 * kube's node lifecycle controller (`nodelifecycle`), leader-elected: every --node-monitor-period it looks at
 * each Node and its Lease (kube-node-lease/<node>) in the watch cache; a node silent past its grace period
 * gets its conditions Unknown (health.ts). It keeps the condition taints (NoSchedule, on every change of a
 * node) and the not-ready/unreachable NoExecute taints (paced per zone, zones.ts) that a taint-based
 * eviction controller acts on. A node it finds silent has its pods marked not ready (pod-readiness.ts), as
 * kube's MarkPodsNotReady does, retried on the next passes until every pod took it.
 */
import { systemContext, type KubeObject } from '../api/index.js';
import type { Controller } from '../controllers/index.js';
import { storageKey, type GenericStore, type ResourceDefinition } from '../registry/index.js';
import { Informer, WorkQueue, type WatchCache } from '../watch/index.js';
import { ApiError, nowTimestamp } from '../api/index.js';
import { noEvents, type RecordEvent } from './events.js';
import { markedNotReady, podsOn } from './pod-readiness.js';
import { isSilent, observeHealth, silentConditions, type GracePeriods, type NodeHealth } from './health.js';
import {
  applyTaintChange,
  isEmpty,
  noExecuteChange,
  noScheduleChange,
  reachableChange,
  readyStatus,
  taintsOf,
  type TaintChange,
} from './taints.js';
import { defaultDisruption, zoneOf, Zones, type DisruptionOptions } from './zones.js';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const MANAGER = 'kube-controller-manager';

export interface NodeLifecycleOptions extends GracePeriods {
  /** --node-monitor-period: how often every node is looked at */
  periodMs: number;
  disruption?: DisruptionOptions;
  recordEvent?: RecordEvent;
  log?: (message: string) => void;
  now?: () => number;
}

export class NodeLifecycleController implements Controller {
  readonly name = 'nodelifecycle';
  readonly leaderElected = true;
  private nodes!: ResourceDefinition;
  private nodeInformer?: Informer;
  private leaseInformer?: Informer;
  private pods?: ResourceDefinition;
  private podInformer?: Informer;
  /** nodes whose pods could not all be marked not ready yet (kube's nodesToRetry) */
  private readonly podsToRetry = new Set<string>();
  private readonly queue: WorkQueue;
  private readonly health = new Map<string, NodeHealth>();
  private zones: Zones;
  private timer?: NodeJS.Timeout;
  private monitoring?: Promise<void>;
  private stopped = true;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private readonly recordEvent: RecordEvent;

  /** `kind(group, resource)`: the stored kinds (registered once the application has started) */
  constructor(
    private readonly cache: WatchCache,
    private readonly kind: (group: string, resource: string) => ResourceDefinition | undefined,
    private readonly generic: GenericStore,
    private readonly options: NodeLifecycleOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => undefined);
    this.recordEvent = options.recordEvent ?? noEvents;
    this.zones = new Zones(options.disruption ?? defaultDisruption);
    this.queue = new WorkQueue((name) => this.syncNoSchedule(name), this.log);
  }

  async start(): Promise<void> {
    this.stopped = false;
    // a new term starts from nothing seen: every node gets a full grace period from now
    this.health.clear();
    this.podsToRetry.clear();
    this.zones = new Zones(this.options.disruption ?? defaultDisruption);
    this.nodes = this.kind('', 'nodes')!;
    this.nodeInformer = new Informer(this.cache, storageKey(this.nodes), (e) => {
      const name = e.object.metadata.name!;
      if (e.type === 'DELETED') this.health.delete(name);
      else this.queue.add(name);
    });
    this.leaseInformer = new Informer(
      this.cache,
      storageKey(this.kind('coordination.k8s.io', 'leases')!),
      () => {},
    );
    this.pods = this.kind('', 'pods');
    if (this.pods) this.podInformer = new Informer(this.cache, storageKey(this.pods), () => {});
    await this.podInformer?.start();
    await this.leaseInformer.start();
    await this.nodeInformer.start();
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.nodeInformer?.stop();
    this.leaseInformer?.stop();
    this.podInformer?.stop();
    await this.monitoring;
    await this.queue.stop();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.monitoring = this.monitor()
        .catch((e: unknown) => this.log(`node monitor: ${(e as Error).message}`))
        .finally(() => this.schedule(this.options.periodMs));
    }, ms);
    this.timer.unref();
  }

  /** kube's monitorNodeHealth: one pass over every node. */
  async monitor(): Promise<void> {
    const now = this.now();
    const current: KubeObject[] = [];
    const readiness = new Map<string, boolean[]>();
    for (const node of this.nodeInformer!.list()) {
      if (this.stopped) return;
      const seen = await this.updateHealth(node, now);
      await this.syncPodReadiness(node.metadata.name!, readyStatus(node), readyStatus(seen));
      current.push(seen);
      const zone = zoneOf(seen);
      readiness.set(zone, [...(readiness.get(zone) ?? []), readyStatus(seen) === 'True']);
    }
    const change = this.zones.update(readiness, now);
    if (change.enteredFullDisruption) {
      this.log('every node is not ready: no NoExecute taints until one is ready again');
      for (const node of current)
        await this.writeTaints(node, reachableChange(node)).catch(this.failed(node));
      return;
    }
    if (change.leftFullDisruption) {
      for (const h of this.health.values()) h.probeTimestamp = h.readyTransitionTimestamp = now;
    }
    for (const node of current) {
      if (this.stopped) return;
      const decision = noExecuteChange(node);
      if (isEmpty(decision)) continue;
      if (decision.paced && !this.zones.mayTaint(zoneOf(node), now)) continue;
      await this.writeTaints(node, decision).catch(this.failed(node));
    }
  }

  private failed(node: KubeObject) {
    return (e: unknown) => this.log(`node ${node.metadata.name}: ${(e as Error).message}`);
  }

  /** kube's tryUpdateNodeHealth: the node as it stands after this pass (its conditions Unknown if silent). */
  private async updateHealth(node: KubeObject, now: number): Promise<KubeObject> {
    const name = node.metadata.name!;
    const lease = this.leaseInformer!.get(NODE_LEASE_NAMESPACE, name);
    const health = observeHealth(this.health.get(name), node, lease, now);
    this.health.set(name, health);
    if (!isSilent(node, health, now, this.options)) return node;
    const conditions = silentConditions(node, nowTimestamp());
    if (!conditions) return node;
    const before = readyStatus(node);
    try {
      // written at the revision read: a heartbeat that arrived meanwhile wins, and the next pass looks again
      const { object } = await this.generic.update(
        systemContext(),
        this.nodes,
        '',
        name,
        () => ({ ...structuredClone(node), status: { ...(node.status ?? {}), conditions } }),
        { subresource: 'status', manager: MANAGER },
      );
      health.readyTransitionTimestamp = now;
      if (before === 'True') {
        this.recordEvent(object, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
      }
      return object;
    } catch (e) {
      if (!(e instanceof ApiError && (e.code === 409 || e.code === 404)))
        this.log(`node ${name}: ${(e as Error).message}`);
      return node;
    }
  }

  /**
   * kube's MarkPodsNotReady call: when this pass took the node's Ready from True, or while a marking that
   * failed is retried and the node is still not Ready.
   */
  private async syncPodReadiness(name: string, observed?: string, current?: string): Promise<void> {
    const due =
      (observed === 'True' && current !== 'True') || (this.podsToRetry.has(name) && observed !== 'True');
    if (due && !(await this.markPodsNotReady(name))) {
      this.podsToRetry.add(name);
      return;
    }
    this.podsToRetry.delete(name);
  }

  /** Ready=False on every pod bound to the node, through pods/status; false when one write failed. */
  private async markPodsNotReady(node: string): Promise<boolean> {
    if (!this.pods || !this.podInformer) return true;
    let ok = true;
    for (const pod of podsOn(this.podInformer.list(), node)) {
      if (this.stopped) return false;
      if (!markedNotReady(pod, nowTimestamp())) continue;
      const { namespace, name } = pod.metadata;
      try {
        await this.generic.update(
          systemContext(),
          this.pods,
          namespace!,
          name!,
          // made from the pod as stored: a status the agent wrote meanwhile is kept, not refused as stale
          (stored) => markedNotReady(stored ?? pod, nowTimestamp()) ?? structuredClone(stored ?? pod),
          { subresource: 'status', manager: MANAGER },
        );
        this.recordEvent(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
      } catch (e) {
        if (e instanceof ApiError && e.code === 404) continue;
        this.log(`pod ${namespace}/${name} on node ${node}: ${(e as Error).message}`);
        ok = false;
      }
    }
    return ok;
  }

  /** kube's doNoScheduleTaintingPass for one node, on each change of it. */
  private async syncNoSchedule(name: string): Promise<void> {
    const node = this.nodeInformer?.get('', name);
    if (!node || isEmpty(noScheduleChange(node))) return;
    await this.writeTaints(node, noScheduleChange(node), true);
  }

  /** Applies `change` to the node as stored now (a NoSchedule change is worked out again on it). */
  private async writeTaints(node: KubeObject, change: TaintChange, recompute = false): Promise<void> {
    if (isEmpty(change)) return;
    const stamp = nowTimestamp();
    try {
      await this.generic.update(
        systemContext(),
        this.nodes,
        '',
        node.metadata.name!,
        (stored) => {
          const next = structuredClone(stored ?? node);
          const taints = applyTaintChange(taintsOf(next), recompute ? noScheduleChange(next) : change, stamp);
          const spec = { ...(next.spec as Record<string, unknown> | undefined) };
          if (taints.length > 0) spec.taints = taints;
          else delete spec.taints;
          return { ...next, spec };
        },
        { manager: MANAGER },
      );
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) return;
      throw e;
    }
  }
}
