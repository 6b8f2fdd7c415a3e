import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from './legacy.js';
import { memoSize } from './memo.js';
import { storageVersionHash } from './resources.js';
import { allTestDefinitions, configMaps, cronTabs, namespaces } from '../../test/support/definitions.js';

describe('GET /api', () => {
  it('lists v1 with the server address', () => {
    assert.deepEqual(apiVersions('10.0.0.1:6443'), {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' }],
    });
  });
});

describe('GET /apis and /apis/<group>', () => {
  const defs = allTestDefinitions();

  it('lists named groups in kube order with preferred versions', () => {
    const list = apiGroupList(defs);
    assert.equal(list.kind, 'APIGroupList');
    assert.equal(list.apiVersion, 'v1');
    assert.deepEqual(
      list.groups.map((g) => g.name),
      ['apps', 'coordination.k8s.io', 'stable.example.com', 'widgets.example.org'],
    );
    const stable = list.groups[2];
    assert.deepEqual(stable.versions, [
      { groupVersion: 'stable.example.com/v1', version: 'v1' },
      { groupVersion: 'stable.example.com/v1beta1', version: 'v1beta1' },
    ]);
    assert.deepEqual(stable.preferredVersion, { groupVersion: 'stable.example.com/v1', version: 'v1' });
  });

  it('answers one group, and undefined for unknown or core', () => {
    const group = apiGroup(defs, 'coordination.k8s.io');
    assert.deepEqual(group, {
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'coordination.k8s.io',
      versions: [{ groupVersion: 'coordination.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'coordination.k8s.io/v1', version: 'v1' },
    });
    assert.equal(apiGroup(defs, 'nope.example.com'), undefined);
    assert.equal(apiGroup(defs, ''), undefined);
  });

  it('caches nothing for names a client makes up (the cache stays bounded)', () => {
    const fresh = allTestDefinitions();
    apiGroup(fresh, 'coordination.k8s.io');
    const size = memoSize(fresh);
    for (let i = 0; i < 500; i++) assert.equal(apiGroup(fresh, `made-up-${i}.example.com`), undefined);
    assert.equal(memoSize(fresh), size);
  });
});

describe('APIResourceList', () => {
  const defs = allTestDefinitions();

  it('computes storageVersionHash like kube (values from a real cluster)', () => {
    assert.equal(storageVersionHash('', 'v1', 'ConfigMap'), 'qFsyl6wFWjQ=');
    assert.equal(storageVersionHash('', 'v1', 'Pod'), 'xPOwRZ+Yhw8=');
    assert.equal(storageVersionHash('', 'v1', 'Namespace'), 'Q3oi5N2YM8M=');
    assert.equal(storageVersionHash('coordination.k8s.io', 'v1', 'Lease'), 'gqkMMb/YqFM=');
  });

  it('gives a virtual kind (stored nowhere) no storageVersionHash, as kube gives TokenReview none', () => {
    const reviews = { ...cronTabs, resource: 'reviews', kind: 'Review', verbs: ['create' as const] };
    const list = apiResourceList(
      [reviews, { ...reviews, resource: 'answers', storage: 'virtual' as const }],
      cronTabs.group,
      'v1',
    )!;
    const byName = new Map(list.resources.map((r) => [r.name, r]));
    assert.equal(byName.get('answers')?.storageVersionHash, undefined);
    assert.deepEqual(byName.get('answers')?.verbs, ['create']);
    assert.ok(byName.get('reviews')?.storageVersionHash);
  });

  it('serves /api/v1 without apiVersion, resources sorted, subresources after their parent', () => {
    const list = apiResourceList(defs, '', 'v1')!;
    assert.equal(list.kind, 'APIResourceList');
    assert.equal('apiVersion' in list, false);
    assert.equal(list.groupVersion, 'v1');
    assert.deepEqual(
      list.resources.map((r) => r.name),
      [
        'configmaps',
        'namespaces',
        'namespaces/finalize',
        'namespaces/status',
        'pods',
        'pods/binding',
        'pods/eviction',
        'pods/exec',
        'pods/log',
        'pods/status',
      ],
    );
  });

  it('describes a main resource exactly as kube serializes it', () => {
    const list = apiResourceList(defs, '', 'v1')!;
    assert.equal(
      JSON.stringify(list.resources.find((r) => r.name === 'configmaps')),
      '{"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap",' +
        '"verbs":["create","delete","deletecollection","get","list","patch","update","watch"],' +
        '"shortNames":["cm"],"storageVersionHash":"qFsyl6wFWjQ="}',
    );
    const ns = list.resources.find((r) => r.name === 'namespaces')!;
    assert.equal(ns.namespaced, false);
    assert.deepEqual(ns.verbs, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual(list.resources.find((r) => r.name === 'pods')!.categories, ['all']);
  });

  it('gives subresources their verbs and kinds, with group/version only when foreign', () => {
    const byName = new Map(apiResourceList(defs, '', 'v1')!.resources.map((r) => [r.name, r]));
    assert.equal(
      JSON.stringify(byName.get('namespaces/status')),
      '{"name":"namespaces/status","singularName":"","namespaced":false,"kind":"Namespace","verbs":["get","patch","update"]}',
    );
    assert.deepEqual(byName.get('namespaces/finalize')!.verbs, ['update']);
    assert.equal(
      JSON.stringify(byName.get('pods/eviction')),
      '{"name":"pods/eviction","singularName":"","namespaced":true,"group":"policy","version":"v1","kind":"Eviction","verbs":["create"]}',
    );
    assert.equal(byName.get('pods/binding')!.group, undefined);
    assert.equal(byName.get('pods/binding')!.kind, 'Binding');
    assert.deepEqual(byName.get('pods/exec')!.verbs, ['create', 'get']);
    assert.equal(byName.get('pods/exec')!.kind, 'PodExecOptions');
    assert.deepEqual(byName.get('pods/log')!.verbs, ['get']);
    for (const sub of ['namespaces/status', 'pods/log']) {
      assert.equal(byName.get(sub)!.storageVersionHash, undefined);
      assert.equal(byName.get(sub)!.shortNames, undefined);
    }
  });

  it('serves named groups with apiVersion, and scale as autoscaling/v1 Scale', () => {
    const list = apiResourceList(defs, 'apps', 'v1')!;
    assert.equal(list.apiVersion, 'v1');
    assert.equal(list.groupVersion, 'apps/v1');
    const scale = list.resources.find((r) => r.name === 'deployments/scale')!;
    assert.deepEqual(
      { group: scale.group, version: scale.version, kind: scale.kind, verbs: scale.verbs },
      { group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
    );
  });

  it('hashes the storage version in every served version', () => {
    const v1 = apiResourceList(defs, 'stable.example.com', 'v1')!.resources[0];
    const beta = apiResourceList(defs, 'stable.example.com', 'v1beta1')!.resources[0];
    assert.equal(beta.storageVersionHash, v1.storageVersionHash);
    assert.equal(v1.storageVersionHash, storageVersionHash('stable.example.com', 'v1', 'CronTab'));
  });

  it('answers undefined for a group-version nobody serves', () => {
    assert.equal(apiResourceList(defs, 'apps', 'v2'), undefined);
    assert.equal(apiResourceList(defs, 'nope.example.com', 'v1'), undefined);
    assert.equal(apiResourceList([cronTabs], '', 'v1'), undefined);
  });

  it('is built once per definitions array, and frozen', () => {
    const a = apiResourceList(defs, '', 'v1');
    assert.equal(apiResourceList(defs, '', 'v1'), a);
    assert.notEqual(apiResourceList([configMaps, namespaces], '', 'v1'), a);
    assert.throws(() => (a!.resources as unknown[]).push({}));
  });
});
