/**
 * The taints the node lifecycle controller keeps on nodes, as kube's: NoSchedule taints mirror the node's
 * conditions (and spec.unschedulable) at once; a NoExecute taint (not-ready or unreachable, never both) follows
 * the Ready condition, and is what a taint-based eviction controller acts on. Only taints with these keys and
 * effects are the controller's; others are left alone.
 */
import { listAt, objAt, strAt, type Obj } from '../kinds/index.js';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface TaintChange {
  add: Taint[];
  remove: Taint[];
}

/** condition type → status → the NoSchedule taint it means */
const conditionTaints: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const conditionTaintKeys = new Set(Object.values(conditionTaints).flatMap((m) => Object.values(m)));

export const taintsOf = (node: Obj): Taint[] =>
  listAt(objAt(node.spec).taints).map((t) => objAt(t) as unknown as Taint);
const conditionsOf = (node: Obj): Obj[] => listAt(objAt(node.status).conditions).map(objAt);
const matches = (a: Taint, b: Taint) => a.key === b.key && a.effect === b.effect;
const has = (taints: Taint[], t: Taint) => taints.some((x) => matches(x, t));

/** Ready's status: 'True', 'False', 'Unknown', or undefined when the node has no Ready condition. */
export function readyStatus(node: Obj): string | undefined {
  const ready = conditionsOf(node).find((c) => c.type === 'Ready');
  return ready ? strAt(ready.status) : undefined;
}

/** kube's doNoScheduleTaintingPass: the node's condition taints (and cordon taint) as they should be. */
export function noScheduleChange(node: Obj): TaintChange {
  const want: Taint[] = [];
  for (const c of conditionsOf(node)) {
    const key = conditionTaints[strAt(c.type)]?.[strAt(c.status)];
    if (key && !has(want, { key, effect: 'NoSchedule' })) want.push({ key, effect: 'NoSchedule' });
  }
  if (objAt(node.spec).unschedulable === true) want.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  const ours = taintsOf(node).filter(
    (t) => t.effect === 'NoSchedule' && (t.key === TAINT_UNSCHEDULABLE || conditionTaintKeys.has(t.key)),
  );
  return { add: want.filter((t) => !has(ours, t)), remove: ours.filter((t) => !has(want, t)) };
}

const noExecute = (key: string): Taint => ({ key, effect: 'NoExecute' });

export interface NoExecuteDecision extends TaintChange {
  /** a fresh taint (not a swap of the other one): kube paces these per zone */
  paced: boolean;
}

/** kube's taint-based eviction marking: not-ready for Ready=False, unreachable for Unknown, neither for True. */
export function noExecuteChange(node: Obj): NoExecuteDecision {
  const taints = taintsOf(node);
  const status = readyStatus(node);
  const none: NoExecuteDecision = { add: [], remove: [], paced: false };
  if (status === undefined) return none;
  if (status === 'True') {
    const remove = [noExecute(TAINT_NOT_READY), noExecute(TAINT_UNREACHABLE)].filter((t) => has(taints, t));
    return { ...none, remove };
  }
  const [want, other] =
    status === 'False' ? [TAINT_NOT_READY, TAINT_UNREACHABLE] : [TAINT_UNREACHABLE, TAINT_NOT_READY];
  if (has(taints, noExecute(want))) return none;
  const swap = has(taints, noExecute(other));
  return { add: [noExecute(want)], remove: swap ? [noExecute(other)] : [], paced: !swap };
}

/** The node's NoExecute taints of this controller, all to go (entering full disruption, or Ready again). */
export function reachableChange(node: Obj): TaintChange {
  const remove = [noExecute(TAINT_NOT_READY), noExecute(TAINT_UNREACHABLE)].filter((t) =>
    has(taintsOf(node), t),
  );
  return { add: [], remove };
}

export const isEmpty = (c: TaintChange) => c.add.length === 0 && c.remove.length === 0;

/**
 * kube's SwapNodeControllerTaint on a list: taints added carry `timeAdded` (the NoExecute clock of
 * tolerationSeconds); a taint already there with the same key and effect is kept as it is.
 */
export function applyTaintChange(taints: Taint[], change: TaintChange, now: string): Taint[] {
  const kept = taints.filter((t) => !has(change.remove, t));
  for (const t of change.add) if (!has(kept, t)) kept.push({ ...t, timeAdded: now });
  return kept;
}
