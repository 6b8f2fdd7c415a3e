/** A CRD's status conditions, set as kube's SetCRDCondition does: the transition time moves only on a change. */
import { nowTimestamp } from '../api/index.js';
import type { CrdCondition } from './crd-shape.js';

export function setCondition(conditions: CrdCondition[] | undefined, next: CrdCondition): CrdCondition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === next.type);
  if (i < 0) return [...list, { ...next, lastTransitionTime: next.lastTransitionTime ?? nowTimestamp() }];
  const old = list[i];
  const moved = old.status !== next.status;
  list[i] = {
    type: next.type,
    status: next.status,
    lastTransitionTime: moved ? (next.lastTransitionTime ?? nowTimestamp()) : old.lastTransitionTime,
    reason: next.reason,
    message: next.message,
  };
  return list;
}

export function conditionOf(conditions: CrdCondition[] | undefined, type: string): CrdCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

export const isTrue = (conditions: CrdCondition[] | undefined, type: string): boolean =>
  conditionOf(conditions, type)?.status === 'True';
