/**
 * What an authorizer is asked (kube's authorizer.Attributes) and what it answers. An authorizer that has no
 * rule for a request says `noOpinion`; the chain asks the next one.
 */
import type { RequestInfo, UserInfo } from '../api/index.js';

export interface Attributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** the URL path, for non-resource requests */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

export type Decision = 'allow' | 'deny' | 'noOpinion';

export interface Verdict {
  decision: Decision;
  /** why, for the Forbidden message and the audit log; never a credential */
  reason?: string;
}

export interface Authorizer {
  authorize(attributes: Attributes): Promise<Verdict>;
}

export function requestAttributes(user: UserInfo, info: RequestInfo): Attributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

export const allow: Verdict = Object.freeze({ decision: 'allow' });
export const noOpinion: Verdict = Object.freeze({ decision: 'noOpinion' });
