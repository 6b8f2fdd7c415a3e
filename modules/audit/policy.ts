/**
 * kube's audit Policy (audit.k8s.io/v1): the file --audit-policy-file names, read and validated at start with
 * kube's messages, and the evaluation of its rules for one request (first matching rule wins; no match: None).
 * The policy-level omitStages join every rule's; a rule's omitManagedFields, when set, overrides the policy's.
 */
import { configFileObject, isPlainObject, type RequestInfo, type UserInfo } from '../api/index.js';
import { isDNS1123Subdomain } from '../validation/index.js';

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy {
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** What a request is audited with. */
export interface RequestAuditConfig {
  level: Level;
  omitStages: readonly Stage[];
  omitManagedFields: boolean;
}

/** What the policy matches on (kube's authorizer attributes of the request, as authenticated). */
export interface AuditAttributes {
  /** unset: authentication failed */
  user?: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

/** The attributes of a request as its path and verb name it, for `user` (unset: authentication failed). */
export function auditAttributes(info: RequestInfo, user: UserInfo | undefined): AuditAttributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.group,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

/** a.Less(b) as kube orders levels */
export function levelBelow(a: Level, b: Level): boolean {
  return LEVELS.indexOf(a) < LEVELS.indexOf(b);
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(rule: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  if (rule.namespaces?.length && !rule.namespaces.includes(a.namespace)) return false;
  if (!rule.resources?.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of rule.resources) {
    if ((gr.group ?? '') !== a.apiGroup) continue;
    if (!gr.resources?.length) return true;
    if (gr.resourceNames?.length && !gr.resourceNames.includes(a.name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (a.subresource && res.startsWith('*/') && res.slice(2) === a.subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === a.resource) return true;
    }
  }
  return false;
}

export function ruleMatches(rule: PolicyRule, a: AuditAttributes): boolean {
  if (rule.users?.length && (!a.user || !rule.users.includes(a.user.name))) return false;
  if (rule.userGroups?.length && !a.user?.groups.some((g) => rule.userGroups!.includes(g))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(a.verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length) return resourceMatches(rule, a);
  if (rule.nonResourceURLs?.length)
    return !a.isResourceRequest && rule.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
  return true;
}

/** kube's policy rule evaluator. */
export class PolicyEvaluator {
  private readonly rules: RequestAuditConfig[];
  private readonly fallback: RequestAuditConfig;

  constructor(private readonly policy: Policy) {
    const policyStages = policy.omitStages ?? [];
    this.rules = policy.rules.map((r) => ({
      level: r.level,
      omitStages: [...new Set([...policyStages, ...(r.omitStages ?? [])])],
      omitManagedFields: r.omitManagedFields ?? policy.omitManagedFields ?? false,
    }));
    this.fallback = {
      level: 'None',
      omitStages: policyStages,
      omitManagedFields: policy.omitManagedFields ?? false,
    };
  }

  evaluate(a: AuditAttributes): RequestAuditConfig {
    const i = this.policy.rules.findIndex((r) => ruleMatches(r, a));
    return i < 0 ? this.fallback : this.rules[i];
  }
}

// ---- reading and validating the file ----

const POLICY_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'rules', 'omitStages', 'omitManagedFields']);
const RULE_FIELDS = new Set([
  'level',
  'users',
  'userGroups',
  'verbs',
  'resources',
  'namespaces',
  'nonResourceURLs',
  'omitStages',
  'omitManagedFields',
]);
const GROUP_RESOURCE_FIELDS = new Set(['group', 'resources', 'resourceNames']);

/** Go's %q of a value in a field error */
const shown = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v));

class Decoding {
  /** unknown fields: kube decodes strictly first, then leniently with a warning */
  readonly unknown: string[] = [];

  fields(o: Record<string, unknown>, known: Set<string>, at: string): void {
    for (const k of Object.keys(o)) if (!known.has(k)) this.unknown.push(`unknown field "${at}${k}"`);
  }

  strings(v: unknown, at: string): string[] | undefined {
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
      throw new Error(`failed decoding: ${at}: expected a list of strings`);
    return v as string[];
  }

  bool(v: unknown, at: string): boolean | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') throw new Error(`failed decoding: ${at}: expected a boolean`);
    return v;
  }

  object(v: unknown, at: string): Record<string, unknown> {
    if (!isPlainObject(v)) throw new Error(`failed decoding: ${at}: expected an object`);
    return v;
  }
}

function decodeRule(d: Decoding, v: unknown, i: number): PolicyRule {
  const at = `rules[${i}]`;
  const o = d.object(v, at);
  d.fields(o, RULE_FIELDS, `${at}.`);
  const rule: PolicyRule = { level: (o.level ?? '') as Level };
  if (typeof rule.level !== 'string') throw new Error(`failed decoding: ${at}.level: expected a string`);
  for (const key of [
    'users',
    'userGroups',
    'verbs',
    'namespaces',
    'nonResourceURLs',
    'omitStages',
  ] as const) {
    const list = d.strings(o[key], `${at}.${key}`);
    if (list) (rule as unknown as Record<string, string[]>)[key] = list;
  }
  if (o.resources !== undefined && o.resources !== null) {
    if (!Array.isArray(o.resources)) throw new Error(`failed decoding: ${at}.resources: expected a list`);
    rule.resources = o.resources.map((r, j) => {
      const g = d.object(r, `${at}.resources[${j}]`);
      d.fields(g, GROUP_RESOURCE_FIELDS, `${at}.resources[${j}].`);
      if (g.group !== undefined && typeof g.group !== 'string')
        throw new Error(`failed decoding: ${at}.resources[${j}].group: expected a string`);
      return {
        group: (g.group as string | undefined) ?? '',
        resources: d.strings(g.resources, `${at}.resources[${j}].resources`),
        resourceNames: d.strings(g.resourceNames, `${at}.resources[${j}].resourceNames`),
      };
    });
  }
  const omit = d.bool(o.omitManagedFields, `${at}.omitManagedFields`);
  if (omit !== undefined) rule.omitManagedFields = omit;
  return rule;
}

function validateStages(stages: readonly string[] | undefined, at: string): string[] {
  return (stages ?? []).flatMap((s, i) =>
    (STAGES as readonly string[]).includes(s)
      ? []
      : [`${at}[${i}]: Invalid value: ${shown(s)}: allowed stages are ${[...STAGES].sort().join(',')}`],
  );
}

function validateRule(rule: PolicyRule, at: string): string[] {
  const errors: string[] = [];
  if (rule.level === ('' as Level)) errors.push(`${at}.level: Required value`);
  else if (!LEVELS.includes(rule.level))
    errors.push(
      `${at}.level: Unsupported value: ${shown(rule.level)}: supported values: ${[...LEVELS]
        .sort()
        .map((l) => `"${l}"`)
        .join(', ')}`,
    );
  (rule.nonResourceURLs ?? []).forEach((url, i) => {
    if (url === '*') return;
    const field = `${at}.nonResourceURLs[${i}]: Invalid value: ${shown(url)}`;
    if (!url.startsWith('/')) errors.push(`${field}: non-resource URL rules must begin with a '/' character`);
    if (url !== '' && url.slice(0, -1).includes('*'))
      errors.push(`${field}: non-resource URL wildcards '*' must be the final character of the rule`);
  });
  for (const gr of rule.resources ?? []) {
    if (gr.group) {
      const msgs = isDNS1123Subdomain(gr.group);
      if (msgs.length)
        errors.push(`${at}.resources.group: Invalid value: ${shown(gr.group)}: ${msgs.join(',')}`);
    }
    if (gr.resourceNames?.length && !gr.resources?.length)
      errors.push(
        `${at}.resources.resourceNames: Invalid value: ${shown(gr.resourceNames)}: using resourceNames requires at least one resource`,
      );
  }
  errors.push(...validateStages(rule.omitStages, `${at}.omitStages`));
  if (rule.nonResourceURLs?.length && (rule.resources?.length || rule.namespaces?.length))
    errors.push(
      `${at}.nonResourceURLs: Invalid value: ${shown(rule.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`,
    );
  return errors;
}

/** kube's ValidatePolicy: every error, joined as an aggregate (one alone, several in brackets). */
export function validatePolicy(policy: Policy): string[] {
  return [
    ...validateStages(policy.omitStages, 'omitStages'),
    ...policy.rules.flatMap((r, i) => validateRule(r, `rules[${i}]`)),
  ];
}

/**
 * A policy file's text (YAML or JSON) → the Policy, or an Error with kube's message. Unknown fields are
 * decoded leniently, as kube falls back to, and returned as warnings.
 */
export function parsePolicy(text: string): { policy: Policy; warnings: string[] } {
  let raw: Record<string, unknown>;
  try {
    raw = configFileObject(text, 'audit.k8s.io', 'Policy', ['v1']).raw;
  } catch (e) {
    throw new Error(`failed decoding: ${(e as Error).message}`);
  }
  const d = new Decoding();
  d.fields(raw, POLICY_FIELDS, '');
  if (raw.rules !== undefined && raw.rules !== null && !Array.isArray(raw.rules))
    throw new Error('failed decoding: rules: expected a list');
  const policy: Policy = {
    rules: ((raw.rules as unknown[] | null) ?? []).map((r, i) => decodeRule(d, r, i)),
  };
  const stages = d.strings(raw.omitStages, 'omitStages');
  if (stages) policy.omitStages = stages as Stage[];
  const omit = d.bool(raw.omitManagedFields, 'omitManagedFields');
  if (omit !== undefined) policy.omitManagedFields = omit;
  const errors = validatePolicy(policy);
  if (errors.length === 1) throw new Error(errors[0]);
  if (errors.length > 1) throw new Error(`[${errors.join(', ')}]`);
  if (policy.rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  const warnings = d.unknown.length
    ? [
        `Audit policy contains errors, falling back to lenient decoding: strict decoding error: ${d.unknown.join(', ')}`,
      ]
    : [];
  return { policy, warnings };
}
