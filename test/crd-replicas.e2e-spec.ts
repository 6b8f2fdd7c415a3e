/**
 * Two replicas on one database: a CRD created through one is served by the other within a second (its watch
 * cache hears of it), both keep its status without taking turns rewriting it, and its removal reaches both.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { useServer } from './support/use-server.js';

const group = 'replicas.pgkube.io';

const crd = (plural: string, kind: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: 'Cluster',
    names: { plural, singular: plural.replace(/s$/, ''), kind },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
});

describe('CRDs across replicas', () => {
  const s = useServer({ replicas: 2 });

  it('a CRD created on one replica is served by the other within 1 s', async () => {
    const [a, b] = s.servers;
    const created = await a.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: crd('sprockets', 'Sprocket'),
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const started = Date.now();
    await eventually(
      async () => (await b.request('GET', `/apis/${group}/v1/sprockets`)).status === 200,
      'served by the second replica',
      5_000,
    );
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 1_000, `served after ${elapsed} ms`);
    const made = await b.request('POST', `/apis/${group}/v1/sprockets`, {
      body: { apiVersion: `${group}/v1`, kind: 'Sprocket', metadata: { name: 'one' }, teeth: 12 },
    });
    assert.equal(made.status, 201, JSON.stringify(made.json));
    assert.equal((await a.request('GET', `/apis/${group}/v1/sprockets/one`)).json.teeth, 12);
  });

  it('both replicas keep the status without rewriting it in turn', async () => {
    const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets.${group}`;
    await eventually(async () => {
      const c = (await s.request('GET', path)).json;
      return c.status?.conditions?.some((x: any) => x.type === 'Established' && x.status === 'True');
    }, 'Established');
    const before = (await s.request('GET', path)).json.metadata.resourceVersion;
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal((await s.request('GET', path)).json.metadata.resourceVersion, before);
  });

  it('a CRD deleted on one replica stops being served on both', async () => {
    const [a, b] = s.servers;
    const deleted = await b.request(
      'DELETE',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets.${group}`,
    );
    assert.ok(deleted.status === 200 || deleted.status === 202, JSON.stringify(deleted.json));
    for (const replica of [a, b]) {
      await eventually(
        async () => (await replica.request('GET', `/apis/${group}/v1/sprockets`)).status === 404,
        'no longer served',
      );
    }
  });
});
