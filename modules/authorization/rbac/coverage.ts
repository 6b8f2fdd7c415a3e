/**
 * kube's rule coverage (Covers): whether owner rules hold every permission of other rules, each broken down
 * to one verb on one resource (or URL) first; and kube's compact wording of what is missing.
 */
import type { PolicyRule } from './rules.js';

const has = (set: readonly string[] | undefined, v: string): boolean => !!set?.includes(v);
const hasAll = (set: readonly string[] | undefined, vs: readonly string[] | undefined): boolean =>
  (vs ?? []).every((v) => has(set, v));

/** One rule per verb × group × resource × name, and per verb × URL (kube's BreakdownRule). */
export function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? [])
    for (const resource of rule.resources ?? [])
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames)
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourcesCovered(
  owner: readonly string[] | undefined,
  wanted: readonly string[] | undefined,
): boolean {
  if (has(owner, '*') || hasAll(owner, wanted)) return true;
  return (wanted ?? []).every((r) => {
    if (has(owner, r)) return true;
    const slash = r.indexOf('/');
    return slash >= 0 && has(owner, `*/${r.slice(slash + 1)}`);
  });
}

const urlCovers = (owner: string, url: string): boolean =>
  owner === url || (owner.endsWith('*') && url.startsWith(owner.replace(/\*+$/, '')));

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const urls = (sub.nonResourceURLs ?? []).every((u) =>
    (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, u)),
  );
  const names = sub.resourceNames?.length
    ? !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames)
    : !owner.resourceNames?.length;
  return verbs && groups && resourcesCovered(owner.resources, sub.resources) && names && urls;
}

/** Whether `owner` covers every rule of `rules`, and the broken-down rules it does not. */
export function covers(
  owner: readonly PolicyRule[],
  rules: readonly PolicyRule[],
): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of rules)
    for (const sub of breakdown(rule)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  return { covered: missing.length === 0, missing };
}

/** Go's %q of a []string: `["a" "b"]`. */
export const goQuotedList = (vs: readonly string[]): string =>
  `[${vs.map((v) => JSON.stringify(v)).join(' ')}]`;

/** kube's CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${goQuotedList(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${goQuotedList(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuotedList(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${goQuotedList(r.resourceNames)}`);
  if (r.verbs?.length) parts.push(`Verbs:${goQuotedList(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** kube's CompactRules: simple rules on the same group and resource (no names) share one rule of verbs. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const simple = new Map<string, PolicyRule>();
  const out: PolicyRule[] = [];
  for (const r of rules) {
    const isSimple =
      r.apiGroups?.length === 1 &&
      r.resources?.length === 1 &&
      !r.resourceNames?.length &&
      !r.nonResourceURLs?.length;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = `${r.apiGroups![0]}\u0000${r.resources![0]}`;
    const existing = simple.get(key);
    if (existing) existing.verbs = [...new Set([...(existing.verbs ?? []), ...(r.verbs ?? [])])];
    else {
      const copy = {
        apiGroups: [...r.apiGroups!],
        resources: [...r.resources!],
        verbs: [...(r.verbs ?? [])],
      };
      simple.set(key, copy);
      out.push(copy);
    }
  }
  return out;
}

/** The missing permissions as kube lists them: one compact rule a line, sorted. */
export function describeMissing(missing: readonly PolicyRule[]): string {
  return [...new Set(compactRules(missing).map(compactString))].sort().join('\n');
}
