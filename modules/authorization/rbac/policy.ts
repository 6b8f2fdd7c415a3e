/**
 * This replica's RBAC policy in memory, fed by informers on the four kinds: roles by key, bindings indexed by
 * the subjects they name, so a decision is a few map lookups. A ServiceAccount subject is indexed under the
 * user name its tokens carry (`system:serviceaccount:<ns>:<name>`).
 */
import { isPlainObject, type KubeObject, type UserInfo } from '../../api/index.js';
import type { PolicyRule } from './rules.js';

export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface Binding {
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  name: string;
  /** '' for a ClusterRoleBinding */
  namespace: string;
  roleRef: { kind: string; name: string };
  subjects: Subject[];
}

/** What a user holds through one binding, with kube's description of where it comes from. */
export interface Grant {
  binding: Binding;
  subject: Subject;
  rules: PolicyRule[];
}

export const serviceAccountUser = (namespace: string, name: string): string =>
  `system:serviceaccount:${namespace}:${name}`;

/** The index key a subject is found under, or undefined when it can never apply (an SA without namespace). */
function subjectKey(s: Subject, bindingNamespace: string): string | undefined {
  switch (s.kind) {
    case 'User':
      return `u:${s.name}`;
    case 'Group':
      return `g:${s.name}`;
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns ? `u:${serviceAccountUser(ns, s.name)}` : undefined;
    }
    default:
      return undefined;
  }
}

const userKeys = (user: UserInfo): string[] => [`u:${user.name}`, ...user.groups.map((g) => `g:${g}`)];

/** kube's describeSubject: a service account as name/namespace. */
export function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} "${s.name}/${s.namespace || bindingNamespace}"`;
  return `${s.kind} "${s.name}"`;
}

/** kube's binding describers, for the reason an allow gives. */
export function describeGrant(g: Grant): string {
  const b = g.binding;
  const name = b.namespace ? `${b.name}/${b.namespace}` : b.name;
  return `${b.kind} "${name}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${describeSubject(g.subject, b.namespace)}`;
}

function rulesOf(obj: KubeObject): PolicyRule[] {
  return Array.isArray(obj.rules) ? (obj.rules.filter(isPlainObject) as PolicyRule[]) : [];
}

function bindingOf(obj: KubeObject): Binding {
  const ref = isPlainObject(obj.roleRef) ? obj.roleRef : {};
  const subjects = Array.isArray(obj.subjects)
    ? (obj.subjects.filter(isPlainObject) as unknown as Subject[])
    : [];
  return {
    kind: obj.metadata.namespace ? 'RoleBinding' : 'ClusterRoleBinding',
    name: obj.metadata.name ?? '',
    namespace: obj.metadata.namespace ?? '',
    roleRef: { kind: String(ref.kind ?? ''), name: String(ref.name ?? '') },
    subjects,
  };
}

class SubjectIndex {
  private readonly bySubject = new Map<string, Map<string, Binding>>();

  add(b: Binding, key: string): void {
    for (const k of new Set(b.subjects.map((s) => subjectKey(s, b.namespace)))) {
      if (k === undefined) continue;
      let m = this.bySubject.get(k);
      if (!m) this.bySubject.set(k, (m = new Map()));
      m.set(key, b);
    }
  }

  remove(b: Binding, key: string): void {
    for (const s of b.subjects) {
      const k = subjectKey(s, b.namespace);
      if (k === undefined) continue;
      const m = this.bySubject.get(k);
      m?.delete(key);
      if (m?.size === 0) this.bySubject.delete(k);
    }
  }

  *bindingsOf(user: UserInfo, namespace?: string): Iterable<Binding> {
    const seen = new Set<Binding>();
    for (const k of userKeys(user)) {
      for (const b of this.bySubject.get(k)?.values() ?? []) {
        if (namespace !== undefined && b.namespace !== namespace) continue;
        if (seen.has(b)) continue;
        seen.add(b);
        yield b;
      }
    }
  }
}

/** The first subject of a binding that names the user (kube's appliesTo). */
function subjectFor(user: UserInfo, b: Binding): Subject | undefined {
  return b.subjects.find((s) => {
    if (s.kind === 'User') return s.name === user.name;
    if (s.kind === 'Group') return user.groups.includes(s.name);
    if (s.kind !== 'ServiceAccount') return false;
    const ns = s.namespace || b.namespace;
    return !!ns && serviceAccountUser(ns, s.name) === user.name;
  });
}

export class RbacPolicy {
  private readonly roles = new Map<string, PolicyRule[]>();
  private readonly clusterRoles = new Map<string, PolicyRule[]>();
  private readonly bindings = new Map<string, Binding>();
  private readonly clusterIndex = new SubjectIndex();
  /** role bindings by namespace: a request asks only its own namespace's */
  private readonly namespaceIndex = new Map<string, SubjectIndex>();

  setRole(obj: KubeObject, deleted = false): void {
    const ns = obj.metadata.namespace ?? '';
    const roles = ns ? this.roles : this.clusterRoles;
    const key = ns ? `${ns}/${obj.metadata.name}` : obj.metadata.name!;
    if (deleted) roles.delete(key);
    else roles.set(key, rulesOf(obj));
  }

  setBinding(obj: KubeObject, deleted = false): void {
    const b = bindingOf(obj);
    const key = b.namespace ? `${b.namespace}/${b.name}` : `/${b.name}`;
    let index = this.clusterIndex;
    if (b.namespace) {
      index = this.namespaceIndex.get(b.namespace) ?? new SubjectIndex();
      this.namespaceIndex.set(b.namespace, index);
    }
    const old = this.bindings.get(key);
    if (old) index.remove(old, key);
    if (deleted) {
      this.bindings.delete(key);
      return;
    }
    this.bindings.set(key, b);
    index.add(b, key);
  }

  /** The rules of a binding's role, or kube's NotFound text when the role does not exist. */
  private roleRules(b: Binding): PolicyRule[] | string {
    if (b.roleRef.kind === 'ClusterRole') {
      return (
        this.clusterRoles.get(b.roleRef.name) ??
        `clusterrole.rbac.authorization.k8s.io "${b.roleRef.name}" not found`
      );
    }
    return (
      this.roles.get(`${b.namespace}/${b.roleRef.name}`) ??
      `role.rbac.authorization.k8s.io "${b.roleRef.name}" not found`
    );
  }

  /**
   * Every grant of `user` that applies in `namespace` (cluster-wide ones first; '' asks for those only),
   * and the errors of bindings whose role is missing. `visit` returning true stops the walk.
   */
  visit(user: UserInfo, namespace: string, visit: (g: Grant) => boolean | void): string[] {
    const errors: string[] = [];
    const walk = (bindings: Iterable<Binding>): boolean => {
      for (const binding of bindings) {
        const subject = subjectFor(user, binding);
        if (!subject) continue;
        const rules = this.roleRules(binding);
        if (typeof rules === 'string') {
          errors.push(rules);
          continue;
        }
        if (visit({ binding, subject, rules })) return true;
      }
      return false;
    };
    if (walk(this.clusterIndex.bindingsOf(user))) return errors;
    const local = namespace ? this.namespaceIndex.get(namespace) : undefined;
    if (local) walk(local.bindingsOf(user, namespace));
    return errors;
  }

  /** A ClusterRole's rules (the escalation check of a binding to it). */
  clusterRoleRules(name: string): PolicyRule[] | undefined {
    return this.clusterRoles.get(name);
  }

  roleRulesIn(namespace: string, name: string): PolicyRule[] | undefined {
    return this.roles.get(`${namespace}/${name}`);
  }
}
