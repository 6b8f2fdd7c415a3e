/**
 * The scheduler's decisions (pure), as kube-scheduler's default filters and scoring make them for what pgkube
 * knows of pods and nodes: NodeUnschedulable, TaintToleration (NoSchedule, NoExecute; a node not Ready counts
 * as tainted not-ready), NodeAffinity (nodeSelector and required node affinity), NodeResourcesFit (cpu, memory,
 * pod count against allocatable); the first failing filter names a node's reasons. Among the nodes that fit,
 * the least allocated wins (ties broken at random, as kube does). No preemption.
 */
import { Quantity } from '../cel/index.js';
import { taintsOf, type Taint } from './taints.js';
import { taintText, tolerationsOf, untoleratedTaint } from './tolerations.js';

export interface Amounts {
  milliCpu: number;
  memory: number;
}

function amount(q: unknown, milli: boolean): number {
  if (typeof q !== 'string' && typeof q !== 'number') return 0;
  try {
    const v = Quantity.parse(String(q));
    const scaled = Number(v.units * (milli ? 1000n : 1n)) / 10 ** v.scale;
    return Math.ceil(scaled);
  } catch {
    return 0;
  }
}

const requestsOf = (c: any): Amounts => ({
  milliCpu: amount(c?.resources?.requests?.cpu, true),
  memory: amount(c?.resources?.requests?.memory, false),
});
const plus = (a: Amounts, b: Amounts): Amounts => ({
  milliCpu: a.milliCpu + b.milliCpu,
  memory: a.memory + b.memory,
});
const max = (a: Amounts, b: Amounts): Amounts => ({
  milliCpu: Math.max(a.milliCpu, b.milliCpu),
  memory: Math.max(a.memory, b.memory),
});
const ZERO: Amounts = { milliCpu: 0, memory: 0 };

/**
 * What a pod asks of a node: its containers' requests plus its sidecars' (restartable init containers), or
 * the largest an init container needs while it runs beside the sidecars started before it; plus the overhead.
 */
export function podRequests(pod: any): Amounts {
  let sidecars = ZERO;
  let initPeak = ZERO;
  for (const c of pod?.spec?.initContainers ?? []) {
    if (c?.restartPolicy === 'Always') {
      sidecars = plus(sidecars, requestsOf(c));
      initPeak = max(initPeak, sidecars);
    } else initPeak = max(initPeak, plus(sidecars, requestsOf(c)));
  }
  const containers = (pod?.spec?.containers ?? []).reduce(
    (s: Amounts, c: any) => plus(s, requestsOf(c)),
    ZERO,
  );
  const overhead = {
    milliCpu: amount(pod?.spec?.overhead?.cpu, true),
    memory: amount(pod?.spec?.overhead?.memory, false),
  };
  return plus(max(plus(containers, sidecars), initPeak), overhead);
}

export function allocatable(node: any): Amounts & { pods: number } {
  const a = node?.status?.allocatable ?? {};
  return { milliCpu: amount(a.cpu, true), memory: amount(a.memory, false), pods: amount(a.pods, false) };
}

const isReady = (node: any) =>
  (node?.status?.conditions ?? []).some((c: any) => c?.type === 'Ready' && c?.status === 'True');

function selectorMatches(labels: Record<string, string>, name: string, term: any): boolean {
  const check = (subject: (key: string) => string | undefined) => (e: any) => {
    const v = subject(e?.key);
    const values: string[] = Array.isArray(e?.values) ? e.values : [];
    switch (e?.operator) {
      case 'In':
        return v !== undefined && values.includes(v);
      case 'NotIn':
        return v === undefined || !values.includes(v);
      case 'Exists':
        return v !== undefined;
      case 'DoesNotExist':
        return v === undefined;
      case 'Gt':
      case 'Lt': {
        const [have, want] = [Number(v), Number(values[0])];
        if (v === undefined || !Number.isInteger(have) || !Number.isInteger(want)) return false;
        return e.operator === 'Gt' ? have > want : have < want;
      }
      default:
        return false;
    }
  };
  const expressions: any[] = term?.matchExpressions ?? [];
  const fields: any[] = term?.matchFields ?? [];
  // an empty term selects nothing
  if (expressions.length === 0 && fields.length === 0) return false;
  return (
    expressions.every(check((k) => (Object.hasOwn(labels, k) ? labels[k] : undefined))) &&
    fields.every(check((k) => (k === 'metadata.name' ? name : undefined)))
  );
}

/** nodeSelector and required node affinity (any of its terms) */
export function matchesNodeAffinity(pod: any, node: any): boolean {
  const labels: Record<string, string> = node?.metadata?.labels ?? {};
  const selector: Record<string, string> = pod?.spec?.nodeSelector ?? {};
  if (Object.entries(selector).some(([k, v]) => labels[k] !== v)) return false;
  const required = pod?.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms: any[] = required?.nodeSelectorTerms ?? [];
  if (!required) return true;
  return terms.some((t) => selectorMatches(labels, node?.metadata?.name ?? '', t));
}

const NOT_READY: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const UNSCHEDULABLE: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/** Why the pod cannot go to this node (kube's wording), none when it can; `onNode`: pods already there. */
export function unfitReasons(pod: any, node: any, onNode: readonly any[]): string[] {
  const tolerations = tolerationsOf(pod);
  if (node?.spec?.unschedulable === true && untoleratedTaint([UNSCHEDULABLE], tolerations, ['NoSchedule']))
    return ['node(s) were unschedulable'];
  const taints = isReady(node) ? taintsOf(node) : [...taintsOf(node), NOT_READY];
  const taint = untoleratedTaint(taints, tolerations, ['NoSchedule', 'NoExecute']);
  if (taint) return [`node(s) had untolerated taint ${taintText(taint)}`];
  if (!matchesNodeAffinity(pod, node)) return ["node(s) didn't match Pod's node affinity/selector"];
  const room = allocatable(node);
  const used = onNode.reduce((s: Amounts, p) => plus(s, podRequests(p)), ZERO);
  const wants = podRequests(pod);
  const reasons: string[] = [];
  if (onNode.length + 1 > room.pods) reasons.push('Too many pods');
  if (wants.milliCpu > 0 && used.milliCpu + wants.milliCpu > room.milliCpu) reasons.push('Insufficient cpu');
  if (wants.memory > 0 && used.memory + wants.memory > room.memory) reasons.push('Insufficient memory');
  return reasons;
}

/** kube's LeastAllocated score, 0-100: the share of cpu and memory left once the pod is placed. */
export function leastAllocatedScore(pod: any, node: any, onNode: readonly any[]): number {
  const room = allocatable(node);
  // kube scores pods without requests as if they asked for 100m and 200Mi
  const asks = (p: any) => {
    const r = podRequests(p);
    return { milliCpu: r.milliCpu || 100, memory: r.memory || 200 * 2 ** 20 };
  };
  const used = [...onNode, pod].reduce((s: Amounts, p) => plus(s, asks(p)), ZERO);
  const free = (cap: number, u: number) => (cap <= 0 ? 0 : Math.max(0, (cap - u) / cap));
  return ((free(room.milliCpu, used.milliCpu) + free(room.memory, used.memory)) / 2) * 100;
}

export type Placement = { node: string } | { unschedulable: string };

/** Where the pod goes, or kube's FailedScheduling message. `podsOn(node)`: the pods bound there. */
export function place(
  pod: any,
  nodes: readonly any[],
  podsOn: (node: string) => readonly any[],
  random: () => number = Math.random,
): Placement {
  if (nodes.length === 0) return { unschedulable: 'no nodes available to schedule pods' };
  const counts = new Map<string, number>();
  let best: { names: string[]; score: number } = { names: [], score: -1 };
  for (const node of nodes) {
    const name: string = node.metadata.name;
    const onNode = podsOn(name);
    const reasons = unfitReasons(pod, node, onNode);
    if (reasons.length > 0) {
      for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
      continue;
    }
    const score = leastAllocatedScore(pod, node, onNode);
    if (score > best.score) best = { names: [name], score };
    else if (score === best.score) best.names.push(name);
  }
  if (best.names.length > 0) return { node: best.names[Math.floor(random() * best.names.length)] };
  const n = nodes.length;
  const why = [...counts].map(([r, c]) => `${c} ${r}`).sort();
  return {
    unschedulable:
      `0/${n} nodes are available: ${why.join(', ')}. ` +
      `preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`,
  };
}
