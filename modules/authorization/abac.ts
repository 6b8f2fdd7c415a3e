/**
 * kube's ABAC mode (--authorization-mode=ABAC, --authorization-policy-file): one JSON Policy per line, each
 * allowing a subject some requests; anything no policy matches gets no opinion. Lines are
 * `abac.authorization.kubernetes.io/v1beta1` Policies, or the unversioned (v0) lines kube still reads, which
 * it converts with wider defaults. Wildcards are kube's: `*` user or group means every authenticated user,
 * `*` namespace, resource, apiGroup or nonResourcePath match all, and a nonResourcePath ending in `*` matches
 * the paths it starts.
 */
import { isPlainObject, type UserInfo } from '../api/index.js';
import { allow, type Attributes, type Authorizer, type RulesAnswer, type Verdict } from './authorizer.js';

const API_VERSION = 'abac.authorization.kubernetes.io/v1beta1';
const LEGACY_API_VERSION = 'abac.authorization.kubernetes.io/v0';
const AUTHENTICATED = 'system:authenticated';
const READ_VERBS = new Set(['get', 'list', 'watch']);

/** One policy, as kube holds it after conversion */
export interface AbacPolicy {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  namespace: string;
  resource: string;
  nonResourcePath: string;
}

export class PolicyFileError extends Error {}

type Line = Record<string, unknown>;

function stringField(o: Line, key: string, where: string): string {
  const v = o[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Error(`${where}${key}: expected a string`);
  return v;
}

function boolField(o: Line, key: string, where: string): boolean {
  const v = o[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new Error(`${where}${key}: expected a boolean`);
  return v;
}

/** v1beta1: the spec as written, except that a `*` user or group stands for every authenticated user */
function fromV1beta1(line: Line): AbacPolicy {
  const spec = line.spec ?? {};
  if (!isPlainObject(spec)) throw new Error('spec: expected an object');
  const p: AbacPolicy = {
    user: stringField(spec, 'user', 'spec.'),
    group: stringField(spec, 'group', 'spec.'),
    readonly: boolField(spec, 'readonly', 'spec.'),
    apiGroup: stringField(spec, 'apiGroup', 'spec.'),
    namespace: stringField(spec, 'namespace', 'spec.'),
    resource: stringField(spec, 'resource', 'spec.'),
    nonResourcePath: stringField(spec, 'nonResourcePath', 'spec.'),
  };
  if (p.user === '*' || p.group === '*') {
    p.group = AUTHENTICATED;
    p.user = '';
  }
  return p;
}

/**
 * v0 (unversioned): fields at the top level; no subject means every authenticated user, an empty namespace or
 * resource means all, any API group matches, and a policy naming neither namespace nor resource also allows
 * every non-resource path.
 */
function fromV0(line: Line): AbacPolicy {
  const user = stringField(line, 'user', '');
  const group = stringField(line, 'group', '');
  const namespace = stringField(line, 'namespace', '');
  const resource = stringField(line, 'resource', '');
  const p: AbacPolicy = {
    user,
    group,
    readonly: boolField(line, 'readonly', ''),
    apiGroup: '*',
    namespace: namespace || '*',
    resource: resource || '*',
    nonResourcePath: !namespace && !resource ? '*' : '',
  };
  if ((!user && !group) || user === '*' || group === '*') {
    p.group = AUTHENTICATED;
    p.user = '';
  }
  return p;
}

function parseLine(text: string): AbacPolicy {
  const line: unknown = JSON.parse(text);
  if (!isPlainObject(line)) throw new Error('expected a JSON object');
  const apiVersion = stringField(line, 'apiVersion', '');
  const kind = stringField(line, 'kind', '');
  if (!apiVersion && !kind) return fromV0(line);
  if (kind !== 'Policy' || (apiVersion !== API_VERSION && apiVersion !== LEGACY_API_VERSION))
    throw new Error(`no kind "${kind}" is registered for version "${apiVersion}"`);
  return apiVersion === API_VERSION ? fromV1beta1(line) : fromV0(line);
}

/**
 * The policies of a policy file; blank lines and `#` comments are skipped. A line that does not read stops
 * the server, named as kube names it.
 */
export function parsePolicyFile(text: string, file: string): AbacPolicy[] {
  const policies: AbacPolicy[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    try {
      policies.push(parseLine(raw));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new PolicyFileError(`error reading policy file ${file}, line ${i + 1}: ${raw}: ${why}`);
    }
  }
  return policies;
}

function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user !== '*' && p.user !== user.name) return false;
    matched = true;
  }
  if (p.group) {
    if (p.group !== '*' && !user.groups.includes(p.group)) return false;
    matched = true;
  }
  return matched;
}

function resourceMatches(p: AbacPolicy, a: Attributes): boolean {
  return (
    a.isResourceRequest &&
    (p.namespace === '*' || p.namespace === a.namespace) &&
    (p.resource === '*' || p.resource === a.resource) &&
    (p.apiGroup === '*' || p.apiGroup === a.apiGroup)
  );
}

function nonResourceMatches(p: AbacPolicy, a: Attributes): boolean {
  if (a.isResourceRequest) return false;
  const path = p.nonResourcePath;
  if (path === '*' || path === a.path) return true;
  return path.endsWith('*') && a.path.startsWith(path.replace(/\*+$/, ''));
}

export function policyMatches(p: AbacPolicy, a: Attributes): boolean {
  return (
    subjectMatches(p, a.user) &&
    (!p.readonly || READ_VERBS.has(a.verb)) &&
    (resourceMatches(p, a) || nonResourceMatches(p, a))
  );
}

const noPolicy: Verdict = Object.freeze({ decision: 'noOpinion', reason: 'No policy matched.' });

export class AbacAuthorizer implements Authorizer {
  constructor(private readonly policies: readonly AbacPolicy[]) {}

  async authorize(a: Attributes): Promise<Verdict> {
    return this.policies.some((p) => policyMatches(p, a)) ? allow : noPolicy;
  }

  /** kube's ABAC RulesFor: each policy of the user in `namespace` (or `*`), one rule per part it grants */
  async rulesFor(user: UserInfo, namespace: string): Promise<RulesAnswer> {
    const out: RulesAnswer = { resourceRules: [], nonResourceRules: [], incomplete: false };
    for (const p of this.policies) {
      if (!subjectMatches(p, user) || (p.namespace !== '*' && p.namespace !== namespace)) continue;
      const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
      if (p.resource)
        out.resourceRules.push({
          verbs: [...verbs],
          apiGroups: [p.apiGroup],
          resources: [p.resource],
          resourceNames: [],
        });
      if (p.nonResourcePath)
        out.nonResourceRules.push({ verbs: [...verbs], nonResourceURLs: [p.nonResourcePath] });
    }
    return out;
  }
}
