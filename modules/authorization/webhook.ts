/**
 * kube's Webhook mode (--authorization-mode=...,Webhook): each request is POSTed as a SubjectAccessReview to
 * the webhook of --authorization-webhook-config-file, in the version --authorization-webhook-version names
 * (v1beta1 by default: its groups field is `group`, v1's `groups`). An allowed answer allows, a `denied` one
 * denies (stopping the chain), anything else has no opinion. Answers are cached by the whole review: allowed
 * ones for the authorized TTL, the others for the unauthorized TTL. A webhook that cannot answer has no
 * opinion, with the error logged (never the review, which names the user).
 */
import { createHash } from 'node:crypto';
import type { FieldRequirement, LabelRequirement } from '../api/index.js';
import { isPlainObject } from '../api/index.js';
import { WebhookError, type WebhookTransport, type WebhookVersion } from '../webhook/index.js';
import { noOpinion, type Attributes, type Authorizer, type RulesAnswer, type Verdict } from './authorizer.js';
import type { Matcher } from './match-conditions.js';

export interface WebhookAuthorizerOptions {
  version: WebhookVersion;
  /** --authorization-webhook-cache-authorized-ttl, -unauthorized-ttl; 0: not cached */
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  /** AuthorizeWithSelectors: the request's selectors go in the review */
  selectors: boolean;
  log: (message: string) => void;
  /** counts each call to the webhook (apiserver_authorization_webhook_*); `failOpen`: it failed with no opinion */
  observe?: (
    result: 'success' | 'error' | 'canceled' | 'timeout',
    seconds: number,
    failOpen: boolean,
  ) => void;
  /** AuthorizationConfiguration's failurePolicy: what a failed call or condition decides (default noOpinion) */
  decisionOnError?: 'noOpinion' | 'deny';
  /** AuthorizationConfiguration's matchConditions, over the SubjectAccessReview v1 spec */
  match?: Matcher;
  /** a request the conditions skipped, or could not judge (kube's match-condition metrics) */
  onMatch?: (outcome: 'excluded' | 'error') => void;
  now?: () => number;
}

/** answer cache bounds (kube's webhook: an LRU of 8192 entries) */
const CACHE_SIZE = 8192;

/** metav1 field requirement: `=` and `!=` become In and NotIn of one value (kube's webhook) */
function fieldRequirements(reqs: readonly FieldRequirement[]): Record<string, unknown>[] {
  return reqs.map((r) => ({
    key: r.field,
    operator: r.operator === '=' ? 'In' : 'NotIn',
    values: [r.value],
  }));
}

const labelOperators: Partial<Record<LabelRequirement['operator'], string>> = {
  '=': 'In',
  '==': 'In',
  in: 'In',
  '!=': 'NotIn',
  notin: 'NotIn',
  exists: 'Exists',
  '!': 'DoesNotExist',
};

/** gt and lt have no metav1 form: left out, which can only widen what is asked (kube does the same) */
function labelRequirements(reqs: readonly LabelRequirement[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const r of reqs) {
    const operator = labelOperators[r.operator];
    if (!operator) continue;
    const req: Record<string, unknown> = { key: r.key, operator };
    if (r.values.length > 0) req.values = [...r.values];
    out.push(req);
  }
  return out;
}

/** The review kube's webhook sends for `a`, fields in Go's order, empty ones left out as Go leaves them. */
export function reviewBody(
  a: Attributes,
  version: WebhookVersion,
  selectors: boolean,
): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (a.isResourceRequest) {
    const r: Record<string, unknown> = {};
    const set = (k: string, v: string) => v && (r[k] = v);
    set('namespace', a.namespace);
    set('verb', a.verb);
    set('group', a.apiGroup);
    set('version', a.apiVersion);
    set('resource', a.resource);
    set('subresource', a.subresource);
    set('name', a.name);
    if (selectors && a.fieldSelector?.length) {
      const requirements = fieldRequirements(a.fieldSelector);
      if (requirements.length) r.fieldSelector = { requirements };
    }
    if (selectors && a.labelSelector?.length) {
      const requirements = labelRequirements(a.labelSelector);
      if (requirements.length) r.labelSelector = { requirements };
    }
    spec.resourceAttributes = r;
  } else {
    const n: Record<string, unknown> = {};
    if (a.path) n.path = a.path;
    if (a.verb) n.verb = a.verb;
    spec.nonResourceAttributes = n;
  }
  if (a.user.name) spec.user = a.user.name;
  if (a.user.groups.length > 0) spec[version === 'v1' ? 'groups' : 'group'] = [...a.user.groups];
  if (a.user.extra && Object.keys(a.user.extra).length > 0) spec.extra = structuredClone(a.user.extra);
  if (a.user.uid) spec.uid = a.user.uid;
  return {
    kind: 'SubjectAccessReview',
    apiVersion: `authorization.k8s.io/${version}`,
    metadata: { creationTimestamp: null },
    spec,
    status: { allowed: false },
  };
}

interface Answer {
  allowed: boolean;
  denied: boolean;
  reason: string;
  evaluationError: string;
}

/** The answer's status, read as kube decodes a SubjectAccessReview of either version. */
export function readAnswer(body: string): Answer {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    throw new WebhookError('malformed SubjectAccessReview answer: not JSON');
  }
  if (!isPlainObject(answer)) throw new WebhookError('malformed SubjectAccessReview answer: not an object');
  if (
    answer.kind !== 'SubjectAccessReview' ||
    !['authorization.k8s.io/v1', 'authorization.k8s.io/v1beta1'].includes(String(answer.apiVersion))
  )
    throw new WebhookError(
      `malformed SubjectAccessReview answer: kind ${JSON.stringify(answer.kind)} of ${JSON.stringify(answer.apiVersion)}`,
    );
  const status = isPlainObject(answer.status) ? answer.status : {};
  const flag = (k: string) => {
    if (status[k] !== undefined && status[k] !== null && typeof status[k] !== 'boolean')
      throw new WebhookError(`malformed SubjectAccessReview answer: status.${k} is not a boolean`);
    return status[k] === true;
  };
  const str = (k: string) => {
    if (status[k] !== undefined && status[k] !== null && typeof status[k] !== 'string')
      throw new WebhookError(`malformed SubjectAccessReview answer: status.${k} is not a string`);
    return typeof status[k] === 'string' ? status[k] : '';
  };
  return {
    allowed: flag('allowed'),
    denied: flag('denied'),
    reason: str('reason'),
    evaluationError: str('evaluationError'),
  };
}

export class WebhookAuthorizer implements Authorizer {
  private readonly cache = new Map<string, { verdict: Verdict; expires: number }>();
  private readonly now: () => number;

  constructor(
    private readonly transport: Pick<WebhookTransport, 'post'>,
    private readonly o: WebhookAuthorizerOptions,
  ) {
    this.now = o.now ?? Date.now;
  }

  async authorize(a: Attributes): Promise<Verdict> {
    const review = reviewBody(a, this.o.version, this.o.selectors);
    if (this.o.match) {
      const v1 = this.o.version === 'v1' ? review : reviewBody(a, 'v1', this.o.selectors);
      const outcome = this.o.match(v1.spec as Record<string, unknown>);
      if ('error' in outcome) {
        this.o.onMatch?.('error');
        return this.failed(outcome.error);
      }
      if (!outcome.matches) {
        this.o.onMatch?.('excluded');
        return noOpinion;
      }
    }
    const body = JSON.stringify(review);
    const key = createHash('sha256').update(body).digest('base64url');
    const hit = this.cache.get(key);
    if (hit && hit.expires > this.now()) return hit.verdict;
    if (hit) this.cache.delete(key);

    const started = this.now();
    let answer: Answer;
    try {
      answer = await this.transport.post(body, readAnswer);
      this.o.observe?.('success', (this.now() - started) / 1000, false);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const failOpen = (this.o.decisionOnError ?? 'noOpinion') === 'noOpinion';
      const result = /no answer within/.test(message) ? 'timeout' : 'error';
      this.o.observe?.(result, (this.now() - started) / 1000, failOpen);
      this.o.log(`Failed calling the authorization webhook: ${message}`);
      return this.failed(`error calling the authorization webhook: ${message}`);
    }
    const verdict: Verdict = answer.allowed
      ? { decision: 'allow', reason: answer.reason || undefined }
      : answer.denied
        ? { decision: 'deny', reason: answer.reason || undefined }
        : { decision: 'noOpinion', reason: answer.reason || undefined };
    const ttl = answer.allowed ? this.o.authorizedTtlMs : this.o.unauthorizedTtlMs;
    if (ttl > 0) {
      if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, { verdict, expires: this.now() + ttl });
    }
    return verdict;
  }

  /** kube's decisionOnError: the failure policy's decision, with the error (a 500 unless a later one allows) */
  private failed(error: string): Verdict {
    return { decision: this.o.decisionOnError ?? 'noOpinion', evaluationError: error };
  }

  /** kube's webhook cannot list what it allows */
  async rulesFor(): Promise<RulesAnswer> {
    return {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    };
  }
}
