/** Strategic merge driven by the real built-in schemas of modules/kinds. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import { configMapDefinition, namespaceDefinition, serviceAccountDefinition } from '../kinds/index.js';
import { applyStrategicMergePatch } from './strategic-merge.js';

type Obj = Record<string, any>;

const sa = (extra: Obj = {}, metadata: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name: 'builder', namespace: 'ci', ...metadata },
  ...extra,
});

const owner = (uid: string, name: string, more: Obj = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name,
  uid,
  ...more,
});

const saPatch = (original: Obj, patch: Obj) =>
  applyStrategicMergePatch(original, patch, serviceAccountDefinition.schema) as Obj;

describe('strategic merge: ServiceAccount', () => {
  const cases: { name: string; original: Obj; patch: Obj; result: Obj }[] = [
    {
      name: 'secrets merge by name (a new name comes before the ones only the server has)',
      original: sa({ secrets: [{ name: 'a' }, { name: 'b' }] }),
      patch: { secrets: [{ name: 'c' }] },
      result: sa({ secrets: [{ name: 'c' }, { name: 'a' }, { name: 'b' }] }),
    },
    {
      name: 'secrets in the order kubectl asks for',
      original: sa({ secrets: [{ name: 'a' }, { name: 'b' }] }),
      patch: {
        '$setElementOrder/secrets': [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
        secrets: [{ name: 'c' }],
      },
      result: sa({ secrets: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }),
    },
    {
      name: 'a secret removed by $patch: delete',
      original: sa({ secrets: [{ name: 'a' }, { name: 'b' }] }),
      patch: { secrets: [{ name: 'a', $patch: 'delete' }] },
      result: sa({ secrets: [{ name: 'b' }] }),
    },
    {
      name: 'imagePullSecrets is atomic and replaced',
      original: sa({ imagePullSecrets: [{ name: 'r1' }, { name: 'r2' }] }),
      patch: { imagePullSecrets: [{ name: 'r3' }] },
      result: sa({ imagePullSecrets: [{ name: 'r3' }] }),
    },
    {
      name: 'finalizers merge as a set',
      original: sa({}, { finalizers: ['example.com/a'] }),
      patch: { metadata: { finalizers: ['example.com/b', 'example.com/a'] } },
      result: sa({}, { finalizers: ['example.com/b', 'example.com/a'] }),
    },
    {
      name: 'a finalizer removed with $deleteFromPrimitiveList',
      original: sa({}, { finalizers: ['example.com/a', 'example.com/b'] }),
      patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } },
      result: sa({}, { finalizers: ['example.com/b'] }),
    },
    {
      name: 'ownerReferences merge by uid',
      original: sa({}, { ownerReferences: [owner('u1', 'rs-1', { controller: true }), owner('u2', 'rs-2')] }),
      patch: { metadata: { ownerReferences: [{ uid: 'u2', blockOwnerDeletion: true }] } },
      result: sa(
        {},
        {
          ownerReferences: [
            owner('u1', 'rs-1', { controller: true }),
            owner('u2', 'rs-2', { blockOwnerDeletion: true }),
          ],
        },
      ),
    },
    {
      name: 'labels merge and null deletes one',
      original: sa({}, { labels: { app: 'ci', tier: 'x' } }),
      patch: { metadata: { labels: { tier: null, team: 'infra' } } },
      result: sa({}, { labels: { app: 'ci', team: 'infra' } }),
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(saPatch(c.original, c.patch), c.result));
  }

  it('an ownerReference without uid is refused', () => {
    assert.throws(
      () =>
        saPatch(sa({}, { ownerReferences: [owner('u1', 'rs-1')] }), {
          metadata: { ownerReferences: [{ name: 'x' }] },
        }),
      (err: unknown) =>
        err instanceof ApiError &&
        err.message === 'map: map[name:x] does not contain declared merge key: uid',
    );
  });
});

describe('strategic merge: Namespace and ConfigMap', () => {
  it('status conditions merge by type; spec.finalizers is replaced', () => {
    const ns = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team' },
      spec: { finalizers: ['kubernetes', 'example.com/x'] },
      status: {
        phase: 'Terminating',
        conditions: [
          { type: 'NamespaceDeletionDiscoveryFailure', status: 'False' },
          { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain' },
        ],
      },
    };
    const out = applyStrategicMergePatch(
      ns,
      {
        spec: { finalizers: ['kubernetes'] },
        status: {
          conditions: [{ type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentDeleted' }],
        },
      },
      namespaceDefinition.schema,
    );
    assert.deepEqual(out, {
      ...ns,
      spec: { finalizers: ['kubernetes'] },
      status: {
        phase: 'Terminating',
        conditions: [
          { type: 'NamespaceDeletionDiscoveryFailure', status: 'False' },
          { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentDeleted' },
        ],
      },
    });
  });

  it('ConfigMap data merges key by key', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1', b: '2' } };
    const out = applyStrategicMergePatch(cm, { data: { b: null, c: '3' } }, configMapDefinition.schema);
    assert.deepEqual(out, { ...cm, data: { a: '1', c: '3' } });
  });

  it('names the kind when a field is unknown to it', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, mystery: { a: 1 } };
    assert.throws(
      () => applyStrategicMergePatch(cm, { mystery: { b: 2 } }, configMapDefinition.schema),
      (err: unknown) =>
        err instanceof ApiError &&
        err.code === 400 &&
        err.message === 'unable to find api field in struct ConfigMap for the json field "mystery"',
    );
  });
});
