/**
 * Grants for tests whose users are not the admin (default --authorization-mode Node,RBAC): a ClusterRole with
 * `rules`, bound cluster-wide or in one namespace, made through the admin; resolves once the server's watch
 * cache (which the RBAC authorizer reads) holds the binding.
 */
import type { ServerClient } from './server.js';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface Rule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export const user = (name: string): Subject => ({
  kind: 'User',
  name,
  apiGroup: 'rbac.authorization.k8s.io',
});
export const group = (name: string): Subject => ({
  kind: 'Group',
  name,
  apiGroup: 'rbac.authorization.k8s.io',
});
export const serviceAccount = (namespace: string, name: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  namespace,
});

/** Every verb on every resource of every group: what the tests' users had before RBAC. */
export const everything: Rule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

async function write(s: ServerClient, path: string, body: object): Promise<string> {
  const r = await s.request('POST', path, { body });
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
  return r.json.metadata.resourceVersion as string;
}

/** Grants `rules` to `subjects` (in `namespace` only when given) as ClusterRole and binding `name`. */
export async function grant(
  s: ServerClient,
  name: string,
  subjects: Subject[],
  rules: Rule[],
  namespace?: string,
): Promise<void> {
  await write(s, `${RBAC}/clusterroles`, { metadata: { name }, rules });
  const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name };
  const rv = namespace
    ? await write(s, `${RBAC}/namespaces/${namespace}/rolebindings`, {
        metadata: { name },
        roleRef,
        subjects,
      })
    : await write(s, `${RBAC}/clusterrolebindings`, { metadata: { name }, roleRef, subjects });
  // a list served from the watch cache once it has seen the binding
  const r = await s.request(
    'GET',
    `${RBAC}/clusterrolebindings?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan&limit=1`,
  );
  if (r.status !== 200) throw new Error(`waiting for the binding: ${r.status} ${r.text}`);
}
