/**
 * kube's node health bookkeeping (the node lifecycle controller's tryUpdateNodeHealth), pure. The controller
 * keeps, per node, when it last saw a sign of life — a new Ready heartbeat or a newer Lease renewTime — on its
 * own clock (the probe timestamp), never trusting the timestamps' values beyond "they moved". A node silent
 * for longer than its grace period gets every condition Unknown.
 */
import type { KubeObject } from '../api/index.js';
import { listAt, objAt, strAt, type Obj } from '../kinds/index.js';

export interface NodeHealth {
  /** the Ready condition last seen (undefined: the node had none) */
  ready?: { lastHeartbeatTime: string; lastTransitionTime: string };
  /** renewTime of the node's Lease last seen (undefined: none seen yet) */
  leaseRenewTime?: string;
  /** last sign of life, on the controller's clock (ms) */
  probeTimestamp: number;
  /** when Ready last changed, on the controller's clock */
  readyTransitionTimestamp: number;
}

export interface GracePeriods {
  /** --node-monitor-grace-period: a node that reported once may be silent this long */
  monitorMs: number;
  /** --node-startup-grace-period: a node that never reported Ready may take this long */
  startupMs: number;
}

/** The conditions the controller turns Unknown (NetworkUnavailable belongs to the network, not the agent). */
export const MONITORED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

const conditionsOf = (node: KubeObject): Obj[] => listAt(objAt(node.status).conditions).map(objAt);

function readyOf(node: KubeObject): NodeHealth['ready'] {
  const c = conditionsOf(node).find((x) => x.type === 'Ready');
  return c
    ? { lastHeartbeatTime: strAt(c.lastHeartbeatTime), lastTransitionTime: strAt(c.lastTransitionTime) }
    : undefined;
}

const timeMs = (t: unknown): number => {
  const ms = Date.parse(strAt(t));
  return Number.isNaN(ms) ? 0 : ms;
};

/** The health record after looking at the node and its Lease at `now`. */
export function observeHealth(
  saved: NodeHealth | undefined,
  node: KubeObject,
  lease: KubeObject | undefined,
  now: number,
): NodeHealth {
  const current = readyOf(node);
  let health: NodeHealth;
  if (!current && !saved) {
    // never reported: its silence counts from its creation
    const created = timeMs(node.metadata.creationTimestamp);
    health = { probeTimestamp: created, readyTransitionTimestamp: created };
  } else if (!saved || !saved.ready !== !current) {
    // first seen by this controller (a new leader gives every node a full grace period), or Ready came or went
    health = { ready: current, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (current && saved.ready && saved.ready.lastHeartbeatTime !== current.lastHeartbeatTime) {
    const transitioned = saved.ready.lastTransitionTime !== current.lastTransitionTime;
    health = {
      ready: current,
      probeTimestamp: now,
      readyTransitionTimestamp: transitioned ? now : saved.readyTransitionTimestamp,
    };
  } else health = { ...saved, ready: current };
  health.leaseRenewTime = saved?.leaseRenewTime;
  const renewTime = strAt(objAt(lease?.spec).renewTime);
  // a renewed Lease is a sign of life even when the status is never posted
  if (lease && (saved?.leaseRenewTime === undefined || timeMs(saved.leaseRenewTime) < timeMs(renewTime))) {
    health.leaseRenewTime = renewTime;
    health.probeTimestamp = now;
  }
  return health;
}

/** Whether the node has been silent past its grace period (startup grace while it never reported Ready). */
export function isSilent(node: KubeObject, health: NodeHealth, now: number, grace: GracePeriods): boolean {
  const period = readyOf(node) ? grace.monitorMs : grace.startupMs;
  return now > health.probeTimestamp + period;
}

/**
 * A silent node's conditions: each monitored one Unknown (kept as it is when Unknown already), one the agent
 * never posted added as never updated. Returns undefined when Ready would not change: kube writes then only.
 */
export function silentConditions(node: KubeObject, nowStamp: string): Obj[] | undefined {
  const conditions = conditionsOf(node).map((c) => ({ ...c }));
  for (const type of MONITORED_CONDITIONS) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({
        type,
        status: 'Unknown',
        lastHeartbeatTime: node.metadata.creationTimestamp,
        lastTransitionTime: nowStamp,
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
      });
    } else if (c.status !== 'Unknown') {
      Object.assign(c, {
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastTransitionTime: nowStamp,
      });
    }
  }
  const before = conditionsOf(node).find((x) => x.type === 'Ready');
  const after = conditions.find((x) => x.type === 'Ready');
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : conditions;
}
