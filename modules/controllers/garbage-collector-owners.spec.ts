/** Where an ownerReference points: kind by group and version, scope, namespace, and uid. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../api/index.js';
import { clusterRoleDefinition, configMapDefinition } from '../kinds/index.js';
import { Registry } from '../registry/index.js';
import type { WatchCache } from '../watch/index.js';
import type { OwnerState } from './garbage-collector-decisions.js';
import { OwnerResolver } from './garbage-collector-owners.js';

const obj = (namespace: string, name: string, uid: string, meta: object = {}): KubeObject => ({
  metadata: { name, uid, ...(namespace ? { namespace } : {}), ...meta },
});

/** what the watch cache holds, by `<storage key>|<namespace>|<name>` */
const held = new Map<string, KubeObject>([
  ['/configmaps|ns|owner', obj('ns', 'owner', 'u-owner')],
  [
    '/configmaps|ns|leaving',
    obj('ns', 'leaving', 'u-leaving', { deletionTimestamp: 'x', finalizers: ['orphan'] }),
  ],
  [
    '/configmaps|ns|waiting',
    obj('ns', 'waiting', 'u-waiting', { deletionTimestamp: 'x', finalizers: ['foregroundDeletion'] }),
  ],
  ['/configmaps|other|elsewhere', obj('other', 'elsewhere', 'u-elsewhere')],
  ['rbac.authorization.k8s.io/clusterroles||role', obj('', 'role', 'u-role')],
]);
const cache = {
  get: (resource: string, namespace: string, name: string) => held.get(`${resource}|${namespace}|${name}`),
} as unknown as WatchCache;

const registry = new Registry();
registry.register(configMapDefinition);
registry.register(clusterRoleDefinition);

const cm = (name: string, uid: string): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name,
  uid,
});
const role = (uid: string, apiVersion = 'rbac.authorization.k8s.io/v1'): OwnerReference => ({
  apiVersion,
  kind: 'ClusterRole',
  name: 'role',
  uid,
});

const cases: { name: string; dependent: KubeObject; ref: OwnerReference; want: OwnerState }[] = [
  { name: 'there, same uid', dependent: obj('ns', 'd', 'd'), ref: cm('owner', 'u-owner'), want: 'live' },
  {
    name: 'there under the name, another uid',
    dependent: obj('ns', 'd', 'd'),
    ref: cm('owner', 'u-old'),
    want: 'absent',
  },
  { name: 'no such name', dependent: obj('ns', 'd', 'd'), ref: cm('nobody', 'u-x'), want: 'absent' },
  {
    name: 'being deleted, but not in the foreground: still an owner',
    dependent: obj('ns', 'd', 'd'),
    ref: cm('leaving', 'u-leaving'),
    want: 'live',
  },
  {
    name: 'being deleted in the foreground: waiting',
    dependent: obj('ns', 'd', 'd'),
    ref: cm('waiting', 'u-waiting'),
    want: 'waiting',
  },
  {
    name: "in another namespace: looked for in the dependent's only",
    dependent: obj('ns', 'd', 'd'),
    ref: cm('elsewhere', 'u-elsewhere'),
    want: 'absent',
  },
  {
    name: 'a cluster-scoped owner of a namespaced object',
    dependent: obj('ns', 'd', 'd'),
    ref: role('u-role'),
    want: 'live',
  },
  {
    name: 'a cluster-scoped owner, gone',
    dependent: obj('ns', 'd', 'd'),
    ref: role('u-gone'),
    want: 'absent',
  },
  {
    name: 'a namespaced owner of a cluster-scoped object: never resolved',
    dependent: obj('', 'd', 'd'),
    ref: cm('owner', 'u-owner'),
    want: 'unresolvable',
  },
  {
    name: 'a kind not known here',
    dependent: obj('ns', 'd', 'd'),
    ref: { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u-w' },
    want: 'unresolvable',
  },
  {
    name: 'a version the kind does not have',
    dependent: obj('ns', 'd', 'd'),
    ref: role('u-role', 'rbac.authorization.k8s.io/v7'),
    want: 'unresolvable',
  },
];

describe('OwnerResolver', () => {
  const owners = new OwnerResolver(registry, cache);
  for (const c of cases) {
    it(c.name, () => assert.equal(owners.state(c.dependent, c.ref), c.want));
  }

  it('learns kinds registered later once told the registry changed', () => {
    const late = new Registry();
    const resolver = new OwnerResolver(late, cache);
    assert.equal(resolver.state(obj('ns', 'd', 'd'), cm('owner', 'u-owner')), 'unresolvable');
    late.register(configMapDefinition);
    resolver.invalidate();
    assert.equal(resolver.state(obj('ns', 'd', 'd'), cm('owner', 'u-owner')), 'live');
  });
});
