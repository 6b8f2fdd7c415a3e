/**
 * What an authorizer is asked (kube's authorizer.Attributes) and what it answers. An authorizer that has no
 * rule for a request says `noOpinion`; the chain asks the next one.
 */
import {
  ApiError,
  parseFieldSelector,
  parseLabelSelector,
  type FieldRequirement,
  type LabelRequirement,
  type RequestInfo,
  type UserInfo,
} from '../api/index.js';
import { isValidPathSegmentName } from '../validation/index.js';

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
  /**
   * The collection request's field and label selectors, parsed (kube's AuthorizeWithSelectors: they can
   * only narrow what is asked); absent when none or when the gate is off.
   */
  fieldSelector?: readonly FieldRequirement[];
  labelSelector?: readonly LabelRequirement[];
}

export type Decision = 'allow' | 'deny' | 'noOpinion';

export interface Verdict {
  decision: Decision;
  /** why, for the Forbidden message and the audit log; never a credential */
  reason?: string;
  /** what kept the authorizer from deciding (kube's authorizer error: a webhook down); never a credential */
  evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: Attributes): Promise<Verdict>;
  /**
   * What `user` may do in `namespace` (cluster-wide rules included), for SelfSubjectRulesReview (kube's
   * RuleResolver). An authorizer without it is not asked (system:masters); one that cannot tell says
   * `incomplete` (a webhook).
   */
  rulesFor?(user: UserInfo, namespace: string): Promise<RulesAnswer>;
}

/** authorization.k8s.io ResourceRule: what SelfSubjectRulesReview lists */
export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesAnswer {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** true when an authorizer could not list everything it allows */
  incomplete: boolean;
  evaluationError?: string;
}

/** the verbs whose selectors kube's request info keeps for authorization */
const SELECTING_VERBS = new Set(['list', 'watch', 'deletecollection']);

/**
 * The attributes of a request. A list or watch whose field selector names one object (`metadata.name=x`) is
 * asked about that name, as kube does, so a rule with resourceNames can allow it. With `selectors`
 * (AuthorizeWithSelectors), a list, watch or deletecollection carries its selectors; one that does not parse
 * is left out: the request fails on it later anyway.
 */
export function requestAttributes(
  user: UserInfo,
  info: RequestInfo,
  query: Record<string, string | undefined> = {},
  selectors = true,
): Attributes {
  const a: Attributes = {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name || selectedName(info.verb, query.fieldSelector),
  };
  if (selectors && info.isResourceRequest && SELECTING_VERBS.has(info.verb)) {
    if (query.fieldSelector)
      a.fieldSelector = parsedOrNone(() => parseFieldSelector(query.fieldSelector!).requirements);
    if (query.labelSelector)
      a.labelSelector = parsedOrNone(() => parseLabelSelector(query.labelSelector!).requirements);
  }
  return a;
}

function parsedOrNone<T>(parse: () => readonly T[]): readonly T[] | undefined {
  try {
    const r = parse();
    return r.length > 0 ? r : undefined;
  } catch {
    return undefined;
  }
}

function selectedName(verb: string, fieldSelector: string | undefined): string {
  if ((verb !== 'list' && verb !== 'watch') || !fieldSelector) return '';
  try {
    const name = parseFieldSelector(fieldSelector).exactName() ?? '';
    return isValidPathSegmentName(name).length === 0 ? name : '';
  } catch (e) {
    // a bad selector is refused later, by the list itself
    if (e instanceof ApiError) return '';
    throw e;
  }
}

export const allow: Verdict = Object.freeze({ decision: 'allow' });
export const noOpinion: Verdict = Object.freeze({ decision: 'noOpinion' });
