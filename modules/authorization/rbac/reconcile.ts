/**
 * kube's reconciliation of the default RBAC policy at start: a missing object is created; one that says
 * `autoupdate: "false"` is left alone; otherwise what was taken away (rules not covered, subjects, selectors,
 * labels, annotations) is added back, and nothing is removed. Each write is a guaranteed update of the
 * stored object, so replicas sharing one database may all run it at once.
 */
import { ApiError, isPlainObject, systemContext, type KubeObject } from '../../api/index.js';
import type { GenericStore, Registry, ResourceDefinition } from '../../registry/index.js';
import {
  AUTOUPDATE,
  defaultClusterRoleBindings,
  defaultClusterRoles,
  defaultRoleBindings,
  defaultRoles,
} from './bootstrap-policy.js';
import { covers } from './coverage.js';
import type { PolicyRule } from './rules.js';

const RBAC = 'rbac.authorization.k8s.io';
const clone = <T>(v: T): T => structuredClone(v);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function mergeMaps(have: unknown, want: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = isPlainObject(have) ? { ...(have as Record<string, string>) } : {};
  for (const [k, v] of Object.entries(want ?? {})) if (!(k in out)) out[k] = v;
  return out;
}

/** Adds back what the default has and the stored object lost; undefined when nothing is missing. */
export function reconciled(stored: KubeObject, wanted: KubeObject): KubeObject | undefined {
  if (stored.metadata.annotations?.[AUTOUPDATE] === 'false') return undefined;
  const next = clone(stored);
  next.metadata.labels = mergeMaps(stored.metadata.labels, wanted.metadata.labels);
  next.metadata.annotations = mergeMaps(stored.metadata.annotations, wanted.metadata.annotations);
  if ('roleRef' in wanted) {
    const subjects = Array.isArray(next.subjects) ? next.subjects : [];
    for (const s of (wanted.subjects ?? []) as object[])
      if (!subjects.some((h) => same(h, s))) subjects.push(s);
    if (subjects.length > 0) next.subjects = subjects;
  } else if (isPlainObject(wanted.aggregationRule)) {
    // the aggregation controller fills the rules; only the selectors are the default's
    const have =
      isPlainObject(next.aggregationRule) && Array.isArray(next.aggregationRule.clusterRoleSelectors)
        ? next.aggregationRule.clusterRoleSelectors
        : [];
    for (const s of wanted.aggregationRule.clusterRoleSelectors as object[])
      if (!have.some((h) => same(h, s))) have.push(s);
    next.aggregationRule = { clusterRoleSelectors: have };
  } else {
    const rules = (Array.isArray(next.rules) ? next.rules : []) as PolicyRule[];
    const { covered } = covers(rules, wanted.rules as PolicyRule[]);
    if (!covered)
      for (const r of wanted.rules as PolicyRule[]) if (!covers(rules, [r]).covered) rules.push(clone(r));
    next.rules = rules;
  }
  return same(next, stored) ? undefined : next;
}

export async function reconcileDefaultPolicy(registry: Registry, generic: GenericStore): Promise<void> {
  const groups: [string, KubeObject[]][] = [
    ['clusterroles', defaultClusterRoles],
    ['clusterrolebindings', defaultClusterRoleBindings],
    ['roles', defaultRoles],
    ['rolebindings', defaultRoleBindings],
  ];
  for (const [resource, objects] of groups) {
    const def = registry.storedKind(RBAC, resource);
    if (!def) continue;
    for (const wanted of objects) {
      const namespace = wanted.metadata.namespace ?? '';
      const name = wanted.metadata.name!;
      await racing(async () => {
        // kube's reconciler replaces a default binding whose roleRef was changed (it cannot be updated)
        if ('roleRef' in wanted) await replaceIfRoleRefChanged(generic, def, namespace, wanted);
        await generic.update(
          systemContext(),
          def,
          namespace,
          name,
          (stored) => (stored ? (reconciled(stored, wanted) ?? stored) : clone(wanted)),
          {},
        );
      });
    }
  }
}

/** Another replica may create or change the same object meanwhile: try again (its write is as good). */
async function racing(write: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      const lost = e instanceof ApiError && (e.code === 409 || e.code === 404);
      if (!lost || attempt >= 3) throw e;
    }
  }
}

async function replaceIfRoleRefChanged(
  generic: GenericStore,
  def: ResourceDefinition,
  namespace: string,
  wanted: KubeObject,
): Promise<void> {
  const name = wanted.metadata.name!;
  const stored = await generic.get(def, namespace, name).catch((e: unknown) => {
    if (e instanceof ApiError && e.code === 404) return undefined;
    throw e;
  });
  if (!stored || stored.metadata.annotations?.[AUTOUPDATE] === 'false') return;
  if (same(stored.roleRef, wanted.roleRef)) return;
  await generic.delete(systemContext(), def, namespace, name, {
    preconditions: { uid: stored.metadata.uid },
  });
}
