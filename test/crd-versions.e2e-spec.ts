/**
 * A CRD with several versions and conversion None: objects are stored in the storage version and read, listed
 * and watched in the version asked for (apiVersion rewritten); a deprecated version warns; an unserved one is
 * not found; storedVersions records every storage version used.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const group = 'versions.pgkube.io';
const CRD_PATH = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/dials.${group}`;
const schema = {
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { angle: { type: 'integer' } } } },
  },
};
const version = (name: string, extra: Record<string, unknown>) => ({
  name,
  served: true,
  storage: false,
  schema,
  ...extra,
});
const crd = (storage: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `dials.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'dials', singular: 'dial', kind: 'Dial' },
    versions: [
      version('v1beta1', {
        storage: storage === 'v1beta1',
        deprecated: true,
        deprecationWarning: 'versions.pgkube.io/v1beta1 Dial is old; use v1',
      }),
      version('v1', { storage: storage === 'v1' }),
      version('v1alpha1', { served: false }),
    ],
  },
});
const dials = (v: string) => `/apis/${group}/${v}/namespaces/default/dials`;

describe('CRD versions with conversion None', () => {
  const s = useServer();

  it('is served in each served version, preferred first', async () => {
    const created = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: crd('v1'),
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    await eventually(async () => (await s.request('GET', dials('v1'))).status === 200, 'served');
    const discovered = (await s.request('GET', `/apis/${group}`)).json;
    assert.deepEqual(
      discovered.versions.map((v: any) => v.version),
      ['v1', 'v1beta1'],
    );
    assert.equal(discovered.preferredVersion.version, 'v1');
    assert.equal((await s.request('GET', dials('v1alpha1'))).status, 404);
  });

  it('objects written in one version are read in the version asked for', async () => {
    const created = await s.request('POST', dials('v1beta1'), {
      body: { apiVersion: `${group}/v1beta1`, kind: 'Dial', metadata: { name: 'd1' }, spec: { angle: 30 } },
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    assert.equal(created.json.apiVersion, `${group}/v1beta1`);
    assert.match(String(created.headers.warning), /Dial is old; use v1/);
    const asV1 = await s.request('GET', `${dials('v1')}/d1`);
    assert.equal(asV1.json.apiVersion, `${group}/v1`);
    assert.equal(asV1.headers.warning, undefined);
    assert.equal((await s.request('GET', `${dials('v1beta1')}/d1`)).json.apiVersion, `${group}/v1beta1`);
    const list = (await s.request('GET', dials('v1beta1'))).json;
    assert.equal(list.apiVersion, `${group}/v1beta1`);
    assert.deepEqual(
      list.items.map((i: any) => i.apiVersion),
      [`${group}/v1beta1`],
    );
    const cached = (await s.request('GET', `${dials('v1beta1')}?resourceVersion=0`)).json;
    assert.deepEqual(
      cached.items.map((i: any) => i.apiVersion),
      [`${group}/v1beta1`],
    );
    const patched = await s.request('PATCH', `${dials('v1beta1')}/d1`, {
      raw: JSON.stringify({ spec: { angle: 45 } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.json));
    assert.equal(patched.json.apiVersion, `${group}/v1beta1`);
    assert.equal(patched.json.spec.angle, 45);
  });

  it('watches of two versions see the same change each in its own version', async () => {
    const w1 = await openWatch(s, `${dials('v1')}?watch=true&resourceVersion=0`);
    const w2 = await openWatch(s, `${dials('v1beta1')}?watch=true&resourceVersion=0`);
    try {
      await s.request('POST', dials('v1'), {
        body: { apiVersion: `${group}/v1`, kind: 'Dial', metadata: { name: 'd2' }, spec: { angle: 90 } },
      });
      for (const [w, v] of [
        [w1, 'v1'],
        [w2, 'v1beta1'],
      ] as const) {
        await eventually(() => w.events.some((e) => e.object.metadata?.name === 'd2'), `d2 on ${v}`);
        for (const e of w.events) assert.equal(e.object.apiVersion, `${group}/${v}`);
      }
    } finally {
      w1.close();
      w2.close();
    }
  });

  it('storedVersions gains the new storage version', async () => {
    const current = (await s.request('GET', CRD_PATH)).json;
    const updated = await s.request('PUT', CRD_PATH, {
      body: { ...crd('v1beta1'), metadata: current.metadata },
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.json));
    assert.deepEqual(updated.json.status.storedVersions, ['v1', 'v1beta1']);
  });
});
