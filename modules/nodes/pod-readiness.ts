/**
 * kube's MarkPodsNotReady, per pod and pure: when the lifecycle controller finds a node silent, the pods on
 * it can no longer be trusted to serve, so their Ready condition turns False (its reason and message kept,
 * lastTransitionTime now), which takes them out of Services' endpoints. A pod without a Ready condition, or
 * already not ready, is left alone.
 */
import type { KubeObject } from '../api/index.js';
import { listAt, objAt } from '../kinds/index.js';

/** The pod with Ready=False, or undefined when nothing changes. */
export function markedNotReady(pod: KubeObject, nowStamp: string): KubeObject | undefined {
  const conditions = listAt(objAt(pod.status).conditions).map(objAt);
  const i = conditions.findIndex((c) => c.type === 'Ready');
  if (i < 0 || conditions[i].status === 'False') return undefined;
  const next = structuredClone(pod);
  const nextConditions = listAt(objAt(next.status).conditions);
  nextConditions[i] = { ...conditions[i], status: 'False', lastTransitionTime: nowStamp };
  return next;
}

/** The pods among `pods` bound to `node`. */
export function podsOn(pods: KubeObject[], node: string): KubeObject[] {
  return pods.filter((p) => objAt(p.spec).nodeName === node);
}
