/**
 * Tolerations as kube matches them against taints (pure): the scheduler keeps pods off nodes whose NoSchedule
 * and NoExecute taints they do not tolerate; the taint eviction controller deletes pods from nodes with a
 * NoExecute taint they do not tolerate at once, and after the shortest tolerationSeconds of the tolerations that
 * let them stay.
 */
import type { Taint } from './taints.js';

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal' | string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/** kube's ToleratesTaint: an empty effect matches every effect; an empty key with Exists matches every key. */
export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (!t.key && t.operator !== 'Exists') return false;
  switch (t.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

export const tolerationsOf = (pod: any): Toleration[] =>
  Array.isArray(pod?.spec?.tolerations) ? pod.spec.tolerations : [];

/** The first taint with one of `effects` that no toleration tolerates. */
export function untoleratedTaint(
  taints: Taint[],
  tolerations: Toleration[],
  effects: string[],
): Taint | undefined {
  return taints.find(
    (taint) => effects.includes(taint.effect) && !tolerations.some((t) => tolerates(t, taint)),
  );
}

/** kube's way of naming a taint in a scheduling message: `{key: value}` */
export const taintText = (t: Taint) => `{${t.key}: ${t.value ?? ''}}`;

export type EvictionDecision = { evict: 'now' } | { evict: 'at'; atMs: number } | { evict: 'never' };

/**
 * When a pod on a node with these taints must go (kube's taint eviction): a NoExecute taint it does not
 * tolerate → now; otherwise the shortest tolerationSeconds among the tolerations it uses for them (zero or
 * less: now), counted from when the newest of those taints was added (`nowMs` when a taint does not say); none
 * of them limited → never.
 */
export function evictionDecision(
  taints: Taint[],
  tolerations: Toleration[],
  nowMs: number,
): EvictionDecision {
  const noExecute = taints.filter((t) => t.effect === 'NoExecute');
  if (noExecute.length === 0) return { evict: 'never' };
  if (untoleratedTaint(noExecute, tolerations, ['NoExecute'])) return { evict: 'now' };
  const used = tolerations.filter((t) => noExecute.some((taint) => tolerates(t, taint)));
  const limits = used.flatMap((t) => (typeof t.tolerationSeconds === 'number' ? [t.tolerationSeconds] : []));
  if (limits.length === 0) return { evict: 'never' };
  const seconds = Math.min(...limits);
  if (seconds <= 0) return { evict: 'now' };
  const added = noExecute.map((t) => (t.timeAdded ? Date.parse(t.timeAdded) : NaN));
  const since = added.some(Number.isNaN) ? nowMs : Math.max(...added);
  return { evict: 'at', atMs: since + seconds * 1000 };
}
