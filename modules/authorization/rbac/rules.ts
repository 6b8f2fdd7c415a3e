/**
 * kube's RBAC rule matching (RuleAllows): a rule allows a request when each of its lists matches; `*` matches
 * anything. Only `*\/<subresource>` is a pattern among resources (kube has no `pods/*`), and only a trailing
 * `*` among non-resource URLs.
 */
import type { Attributes } from '../authorizer.js';

/** rbac.authorization.k8s.io/v1 PolicyRule as stored (every list may be absent). */
export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const ALL = '*';

export const verbMatches = (rule: PolicyRule, verb: string): boolean =>
  !!rule.verbs?.some((v) => v === ALL || v === verb);

export const apiGroupMatches = (rule: PolicyRule, group: string): boolean =>
  !!rule.apiGroups?.some((g) => g === ALL || g === group);

export function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource))
      return true;
  }
  return false;
}

/** No names: every object. With names, only a request that names one (never create, deletecollection, list). */
export const resourceNameMatches = (rule: PolicyRule, name: string): boolean =>
  !rule.resourceNames?.length || rule.resourceNames.includes(name);

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === ALL || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, a.verb)) return false;
  if (!a.isResourceRequest) return nonResourceURLMatches(rule, a.path);
  return (
    apiGroupMatches(rule, a.apiGroup) &&
    resourceMatches(rule, a.resource, a.subresource) &&
    resourceNameMatches(rule, a.name)
  );
}
