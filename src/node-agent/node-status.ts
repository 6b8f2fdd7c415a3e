/**
 * The Node the agent registers and the status it posts, computed from the host's figures (pure). Pressure
 * conditions follow the kubelet's hard eviction thresholds (defaults: memory.available<100Mi,
 * nodefs.available<10%, nodefs.inodesFree<5%; pid.available only when configured); allocatable is capacity
 * less those thresholds, as the kubelet computes it with no reservations.
 */
import type { HostFigures } from './host-figures.js';
import { rfc3339 } from './times.js';

export type EvictionThresholds = Record<string, string>;
export const DEFAULT_EVICTION_HARD: EvictionThresholds = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
};

export interface NodeIdentity {
  name: string;
  hostname: string;
  internalIP: string;
  port: number;
  maxPods: number;
  kubeletVersion: string;
  runtimeVersion: string;
  os: { kernelVersion: string; osImage: string; machineID: string; bootID: string; arch: string };
}

interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
const DECIMAL: Record<string, number> = { k: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** A threshold's amount in the figure's unit: a percentage of `total`, or a quantity. */
export function thresholdAmount(value: string, total: number): number {
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(value);
  if (percent) return (Number(percent[1]) / 100) * total;
  const q = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(value);
  if (!q)
    throw new Error(`eviction threshold ${JSON.stringify(value)} is neither a quantity nor a percentage`);
  return Number(q[1]) * (q[2] ? (BINARY[q[2]] ?? DECIMAL[q[2]]) : 1);
}

export interface Pressures {
  memory: boolean;
  disk: boolean;
  pid: boolean;
}

export function pressuresOf(h: HostFigures, hard: EvictionThresholds): Pressures {
  const below = (signal: string, available: number, total: number) =>
    hard[signal] !== undefined && available < thresholdAmount(hard[signal], total);
  return {
    memory: below('memory.available', h.memoryAvailableBytes, h.memoryBytes),
    disk:
      below('nodefs.available', h.diskAvailableBytes, h.diskBytes) ||
      below('nodefs.inodesFree', h.inodesFree, h.inodes),
    pid: below('pid.available', h.pidMax - h.pids, h.pidMax),
  };
}

const ki = (bytes: number) => `${Math.floor(bytes / 1024)}Ki`;

export function capacityOf(h: HostFigures, id: NodeIdentity): Record<string, string> {
  return {
    cpu: String(h.cpus),
    'ephemeral-storage': ki(h.diskBytes),
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: ki(h.memoryBytes),
    pods: String(id.maxPods),
  };
}

export function allocatableOf(
  h: HostFigures,
  id: NodeIdentity,
  hard: EvictionThresholds,
): Record<string, string> {
  const less = (total: number, signal: string) =>
    Math.max(0, total - (hard[signal] === undefined ? 0 : thresholdAmount(hard[signal], total)));
  return {
    ...capacityOf(h, id),
    'ephemeral-storage': String(Math.floor(less(h.diskBytes, 'nodefs.available'))),
    memory: ki(less(h.memoryBytes, 'memory.available')),
  };
}

/** The kubelet's conditions, in its order, with its reasons and messages. */
export function conditionsOf(p: Pressures, readyProblems: string[]): Condition[] {
  const pressure = (type: string, on: boolean, yes: [string, string], no: [string, string]): Condition => {
    const [reason, message] = on ? yes : no;
    return { type, status: on ? 'True' : 'False', reason, message };
  };
  return [
    pressure(
      'MemoryPressure',
      p.memory,
      ['KubeletHasInsufficientMemory', 'kubelet has insufficient memory available'],
      ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    ),
    pressure(
      'DiskPressure',
      p.disk,
      ['KubeletHasDiskPressure', 'kubelet has disk pressure'],
      ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    ),
    pressure(
      'PIDPressure',
      p.pid,
      ['KubeletHasInsufficientPID', 'kubelet has insufficient PID available'],
      ['KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    ),
    readyProblems.length === 0
      ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }
      : { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: readyProblems.join(', ') },
  ];
}

/**
 * The conditions to post: heartbeats now, a transition time kept from the previous posting while the
 * status stays the same (the lifecycle controller's Unknown counts as a change).
 */
export function stampConditions(
  next: Condition[],
  previous: Condition[] | undefined,
  now: number,
): Condition[] {
  const at = rfc3339(now);
  return next.map((c) => {
    const before = previous?.find((p) => p.type === c.type);
    const same = before && before.status === c.status && before.lastTransitionTime;
    return { ...c, lastHeartbeatTime: at, lastTransitionTime: same ? before.lastTransitionTime : at };
  });
}

/** The status without its heartbeat times: what decides whether there is anything new to post. */
export function statusFingerprint(status: any): string {
  const conditions = (status.conditions ?? []).map((c: Condition) => [c.type, c.status, c.reason, c.message]);
  return JSON.stringify({ ...status, conditions });
}

export function nodeStatus(
  h: HostFigures,
  id: NodeIdentity,
  hard: EvictionThresholds,
  readyProblems: string[],
) {
  return {
    capacity: capacityOf(h, id),
    allocatable: allocatableOf(h, id, hard),
    conditions: conditionsOf(pressuresOf(h, hard), readyProblems),
    addresses: [
      { type: 'InternalIP', address: id.internalIP },
      { type: 'Hostname', address: id.hostname },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: id.port } },
    nodeInfo: {
      machineID: id.os.machineID,
      systemUUID: id.os.machineID,
      bootID: id.os.bootID,
      kernelVersion: id.os.kernelVersion,
      osImage: id.os.osImage,
      containerRuntimeVersion: id.runtimeVersion,
      kubeletVersion: id.kubeletVersion,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: id.os.arch,
    },
  };
}

/** The Node as the kubelet registers it: its well-known labels and its first status. */
export function nodeToRegister(status: ReturnType<typeof nodeStatus>, id: NodeIdentity) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: id.name,
      labels: {
        'beta.kubernetes.io/arch': id.os.arch,
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': id.os.arch,
        'kubernetes.io/hostname': id.hostname,
        'kubernetes.io/os': 'linux',
      },
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: {},
    status,
  };
}
