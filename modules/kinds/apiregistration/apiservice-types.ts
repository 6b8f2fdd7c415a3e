/** The shape of apiregistration.k8s.io/v1 APIService objects, and the facts about them kube's code relies on. */
import type { KubeObject } from '../../api/index.js';

export const APIREGISTRATION_GROUP = 'apiregistration.k8s.io';

export interface APIServiceServiceReference {
  namespace?: string;
  name?: string;
  /** defaulted to 443 */
  port?: number;
}

export interface APIServiceSpec {
  /** null or absent: served by this server itself (a "local" APIService) */
  service?: APIServiceServiceReference | null;
  group?: string;
  version?: string;
  insecureSkipTLSVerify?: boolean;
  /** PEM bundle, base64 in JSON */
  caBundle?: string;
  groupPriorityMinimum?: number;
  versionPriority?: number;
}

export interface APIServiceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface APIService extends KubeObject {
  spec?: APIServiceSpec;
  status?: { conditions?: APIServiceCondition[] };
}

/** the condition type the aggregator routes by */
export const AVAILABLE_CONDITION = 'Available';
export const conditionStatuses = ['True', 'False', 'Unknown'];

/** `<version>.<group>`: the name an APIService must have (`v1.` for the legacy core group). */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/** What kube writes on local APIServices: they are always available. */
export function localAvailableCondition(now: string): APIServiceCondition {
  return {
    type: AVAILABLE_CONDITION,
    status: 'True',
    lastTransitionTime: now,
    reason: 'Local',
    message: 'Local APIServices are always available',
  };
}

/** The condition of that type, if the object has it. */
export function apiServiceCondition(obj: APIService, type: string): APIServiceCondition | undefined {
  const conditions = obj.status?.conditions;
  return Array.isArray(conditions) ? conditions.find((c) => c?.type === type) : undefined;
}

/**
 * kube's SetAPIServiceCondition: replaces the condition of the same type, keeping its lastTransitionTime
 * unless the status changed; a new type is appended.
 */
export function setApiServiceCondition(obj: APIService, condition: APIServiceCondition): void {
  const status = (obj.status ??= {});
  const conditions = (status.conditions ??= []);
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({ ...condition });
    return;
  }
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = condition.lastTransitionTime;
  }
  existing.reason = condition.reason;
  existing.message = condition.message;
}
