/**
 * The answers of authorization.k8s.io's access reviews (modules/kinds/authorization): each asks the
 * authorizer chain as a request would (kube's SubjectAccessReview REST storages). The request that creates
 * a review was itself authorized by the pipeline (create on the review's resource).
 */
import {
  ApiError,
  fieldError,
  isPlainObject,
  parseFieldSelector,
  parseLabelSelector,
  type FieldError,
  type FieldRequirement,
  type KubeObject,
  type LabelRequirement,
  type UserInfo,
} from '../api/index.js';
import type { VirtualCreate } from '../registry/index.js';
import { isQualifiedName } from '../validation/index.js';
import type { Attributes } from './authorizer.js';
import type { AuthorizerChain } from './chain.js';

type Obj = Record<string, unknown>;

const GROUP = 'authorization.k8s.io';

function text(o: Obj, key: string): string {
  return typeof o[key] === 'string' ? o[key] : '';
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function extraOf(v: unknown): Record<string, string[]> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [k, values] of Object.entries(v)) out[k] = strings(values);
  return Object.keys(out).length > 0 ? out : undefined;
}

const object = (v: unknown): Obj | undefined => (isPlainObject(v) ? v : undefined);

/** Go's %#v of the attributes kube names in its messages */
function goValue(kind: string, o: Obj, fields: string[]): string {
  const parts = fields.map((f) => `${f[0].toUpperCase()}${f.slice(1)}:${JSON.stringify(text(o, f))}`);
  return `authorization.${kind}{${parts.join(', ')}}`;
}

const shownNonResource = (n: Obj) => goValue('NonResourceAttributes', n, ['path', 'verb']);

/**
 * kube's checks of a field or label selector of resourceAttributes (AuthorizeWithSelectors). Unknown operators
 * pass (a newer client may know more), so a requirement kube cannot read only leaves the request wider.
 */
function selectorErrors(selector: unknown, path: string, labels: boolean): FieldError[] {
  const s = object(selector);
  if (!s) return [];
  const errors: FieldError[] = [];
  const raw = text(s, 'rawSelector');
  const requirements = Array.isArray(s.requirements) ? s.requirements : [];
  if (raw && requirements.length > 0)
    errors.push(
      fieldError.invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'),
    );
  if (!raw && requirements.length === 0)
    errors.push(
      fieldError.required(
        `${path}.requirements`,
        `when ${path} is specified, requirements or rawSelector is required`,
      ),
    );
  requirements.forEach((r, i) => {
    const req = object(r) ?? {};
    const at = `${path}.requirements[${i}]`;
    const key = text(req, 'key');
    if (!labels) {
      if (!key) errors.push(fieldError.required(`${at}.key`, 'must be specified'));
      return;
    }
    const op = text(req, 'operator');
    const values = strings(req.values);
    if ((op === 'In' || op === 'NotIn') && values.length === 0)
      errors.push(
        fieldError.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
      );
    if ((op === 'Exists' || op === 'DoesNotExist') && values.length > 0)
      errors.push(
        fieldError.forbidden(
          `${at}.values`,
          "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ),
      );
    for (const msg of isQualifiedName(key)) errors.push(fieldError.invalid(`${at}.key`, key, msg));
  });
  return errors;
}

/** ValidateSubjectAccessReviewSpec (and its self form, without a user): exactly one kind of attributes */
function specErrors(spec: Obj, forSubject: boolean): FieldError[] {
  const resource = object(spec.resourceAttributes);
  const nonResource = object(spec.nonResourceAttributes);
  const errors: FieldError[] = [];
  if (resource && nonResource)
    errors.push(
      invalidStruct(
        'spec.nonResourceAttributes',
        shownNonResource(nonResource),
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  if (!resource && !nonResource)
    errors.push(
      fieldError.invalid(
        'spec.resourceAttributes',
        'null',
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  if (forSubject && !text(spec, 'user') && strings(spec.groups).length === 0)
    errors.push(
      fieldError.invalid('spec.user', text(spec, 'user'), 'at least one of user or group must be specified'),
    );
  if (resource) {
    errors.push(...selectorErrors(resource.fieldSelector, 'spec.resourceAttributes.fieldSelector', false));
    errors.push(...selectorErrors(resource.labelSelector, 'spec.resourceAttributes.labelSelector', true));
  }
  return errors;
}

/** kube shows a struct value as Go's %#v, unquoted: it goes ahead of the detail */
function invalidStruct(field: string, shown: string, detail: string): FieldError {
  return { type: 'Invalid', field, detail: `${shown}: ${detail}` };
}

/** kube's 422 for a review: the kind qualified by its group, and no name */
function invalid(kind: string, errors: FieldError[]): ApiError {
  const e = ApiError.invalid(kind, GROUP, '', errors);
  e.message = e.message.replace(`${kind} ""`, `${kind}.${GROUP} ""`);
  return e;
}

/** The field selector of a review's requirements (kube: one value each, In or NotIn); undefined if none or unusable */
function fieldRequirements(s: Obj): readonly FieldRequirement[] | undefined {
  const raw = text(s, 'rawSelector');
  try {
    if (raw) return parseFieldSelector(raw).requirements;
    const out: FieldRequirement[] = [];
    for (const r of Array.isArray(s.requirements) ? s.requirements : []) {
      const req = object(r) ?? {};
      const values = strings(req.values);
      if (values.length !== 1) return undefined;
      const op = text(req, 'operator');
      if (op !== 'In' && op !== 'NotIn') return undefined;
      out.push({ field: text(req, 'key'), operator: op === 'In' ? '=' : '!=', value: values[0] });
    }
    return out;
  } catch {
    return undefined;
  }
}

const labelOperators: Record<string, LabelRequirement['operator']> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

function labelRequirements(s: Obj): readonly LabelRequirement[] | undefined {
  const raw = text(s, 'rawSelector');
  try {
    if (raw) return parseLabelSelector(raw).requirements;
    const out: LabelRequirement[] = [];
    for (const r of Array.isArray(s.requirements) ? s.requirements : []) {
      const req = object(r) ?? {};
      const operator = labelOperators[text(req, 'operator')];
      if (!operator) return undefined;
      out.push({ key: text(req, 'key'), operator, values: [...new Set(strings(req.values))].sort() });
    }
    return out;
  } catch {
    return undefined;
  }
}

/** kube's ResourceAttributesFrom / NonResourceAttributesFrom: an empty version asks about all versions */
export function reviewAttributes(user: UserInfo, spec: Obj, selectors: boolean): Attributes {
  const r = object(spec.resourceAttributes);
  if (!r) {
    const n = object(spec.nonResourceAttributes) ?? {};
    return {
      user,
      verb: text(n, 'verb'),
      isResourceRequest: false,
      path: text(n, 'path'),
      namespace: '',
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      name: '',
    };
  }
  const a: Attributes = {
    user,
    verb: text(r, 'verb'),
    isResourceRequest: true,
    path: '',
    namespace: text(r, 'namespace'),
    apiGroup: text(r, 'group'),
    apiVersion: text(r, 'version') || '*',
    resource: text(r, 'resource'),
    subresource: text(r, 'subresource'),
    name: text(r, 'name'),
  };
  if (selectors) {
    const f = object(r.fieldSelector);
    const l = object(r.labelSelector);
    const fs = f && fieldRequirements(f);
    const ls = l && labelRequirements(l);
    if (fs?.length) a.fieldSelector = fs;
    if (ls?.length) a.labelSelector = ls;
  }
  return a;
}

/** kube's SubjectAccessReviewStatus: allowed always, the rest when set */
async function answer(chain: AuthorizerChain, attributes: Attributes): Promise<Obj> {
  const verdict = await chain.decide(attributes);
  const status: Obj = { allowed: verdict.decision === 'allow' };
  if (verdict.decision === 'deny') status.denied = true;
  if (verdict.reason) status.reason = verdict.reason;
  if (verdict.evaluationError) status.evaluationError = verdict.evaluationError;
  return status;
}

/** the user a SubjectAccessReview asks about, exactly as its spec gives it (no groups added) */
function subject(spec: Obj): UserInfo {
  const user: UserInfo = { name: text(spec, 'user'), uid: text(spec, 'uid'), groups: strings(spec.groups) };
  const extra = extraOf(spec.extra);
  if (extra) user.extra = extra;
  return user;
}

export interface ReviewOptions {
  /** AuthorizeWithSelectors: field and label selectors of resourceAttributes are read */
  selectors: boolean;
}

export function subjectAccessReview(chain: AuthorizerChain, o: ReviewOptions): VirtualCreate {
  return async (_ctx, obj) => {
    const spec = object(obj.spec) ?? {};
    const errors = specErrors(spec, true);
    if (errors.length > 0) throw invalid('SubjectAccessReview', errors);
    const status = await answer(chain, reviewAttributes(subject(spec), spec, o.selectors));
    return { ...obj, status } as KubeObject;
  };
}

export function localSubjectAccessReview(chain: AuthorizerChain, o: ReviewOptions): VirtualCreate {
  return async (ctx, obj) => {
    const spec = object(obj.spec) ?? {};
    const errors = specErrors(spec, true);
    const nonResource = object(spec.nonResourceAttributes);
    if (nonResource)
      errors.push(
        invalidStruct(
          'spec.nonResourceAttributes',
          shownNonResource(nonResource),
          'disallowed on this kind of request',
        ),
      );
    if (errors.length > 0) throw invalid('LocalSubjectAccessReview', errors);
    const namespace = ctx.info.namespace;
    if (!namespace) throw ApiError.badRequest(`namespace is required on this type: ${namespace}`);
    if (text(object(spec.resourceAttributes) ?? {}, 'namespace') !== namespace)
      throw ApiError.badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
    const status = await answer(chain, reviewAttributes(subject(spec), spec, o.selectors));
    return { ...obj, status } as KubeObject;
  };
}

export function selfSubjectAccessReview(chain: AuthorizerChain, o: ReviewOptions): VirtualCreate {
  return async (ctx, obj) => {
    const spec = object(obj.spec) ?? {};
    const errors = specErrors(spec, false);
    if (errors.length > 0) throw invalid('SelfSubjectAccessReview', errors);
    const status = await answer(chain, reviewAttributes(ctx.user, spec, o.selectors));
    return { ...obj, status } as KubeObject;
  };
}

/** kube answers with a new review: the spec is not echoed */
export function selfSubjectRulesReview(chain: AuthorizerChain): VirtualCreate {
  return async (ctx, obj) => {
    const namespace = text(object(obj.spec) ?? {}, 'namespace');
    if (!namespace) throw ApiError.badRequest('no namespace on request');
    const rules = await chain.rulesFor(ctx.user, namespace);
    const status: Obj = {
      resourceRules: rules.resourceRules.map((r) => {
        const rule: Obj = { verbs: r.verbs };
        if (r.apiGroups.length > 0) rule.apiGroups = r.apiGroups;
        if (r.resources.length > 0) rule.resources = r.resources;
        if (r.resourceNames.length > 0) rule.resourceNames = r.resourceNames;
        return rule;
      }),
      nonResourceRules: rules.nonResourceRules.map((r) => {
        const rule: Obj = { verbs: r.verbs };
        if (r.nonResourceURLs.length > 0) rule.nonResourceURLs = r.nonResourceURLs;
        return rule;
      }),
      incomplete: rules.incomplete,
    };
    if (rules.evaluationError) status.evaluationError = rules.evaluationError;
    return {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: { creationTimestamp: null },
      spec: {},
      status,
    } as unknown as KubeObject;
  };
}
