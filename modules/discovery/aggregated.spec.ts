import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { aggregatedDiscovery, aggregatedDiscoveryResponse } from './aggregated.js';
import { allTestDefinitions, configMaps } from '../../test/support/definitions.js';

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

describe('aggregated discovery', () => {
  const defs = allTestDefinitions();

  for (const version of ['v2', 'v2beta1'] as const) {
    it(`is an APIGroupDiscoveryList of apidiscovery.k8s.io/${version}`, () => {
      const list = aggregatedDiscovery(defs, 'apis', version);
      assert.equal(list.kind, 'APIGroupDiscoveryList');
      assert.equal(list.apiVersion, `apidiscovery.k8s.io/${version}`);
      assert.deepEqual(list.metadata, {});
    });
  }

  it('serves the core group at /api with an unnamed group', () => {
    const list = aggregatedDiscovery(defs, 'api', 'v2');
    assert.equal(list.items.length, 1);
    assert.equal(JSON.stringify(list.items[0].metadata), '{"creationTimestamp":null}');
    assert.deepEqual(
      list.items[0].versions.map((v) => [v.version, v.freshness]),
      [['v1', 'Current']],
    );
    const ns = list.items[0].versions[0].resources!.find((r) => r.resource === 'namespaces')!;
    assert.deepEqual(ns, {
      resource: 'namespaces',
      responseKind: { group: '', version: '', kind: 'Namespace' },
      scope: 'Cluster',
      singularResource: 'namespace',
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ns'],
      subresources: [
        {
          subresource: 'finalize',
          responseKind: { group: '', version: '', kind: 'Namespace' },
          verbs: ['update'],
        },
        {
          subresource: 'status',
          responseKind: { group: '', version: '', kind: 'Namespace' },
          verbs: ['get', 'patch', 'update'],
        },
      ],
    });
    // subresources never appear as resources of their own
    assert.ok(list.items[0].versions[0].resources!.every((r) => !r.resource.includes('/')));
  });

  it('serves named groups at /apis in kube order, versions preferred first', () => {
    const list = aggregatedDiscovery(defs, 'apis', 'v2');
    assert.deepEqual(
      list.items.map((g) => g.metadata.name),
      ['apps', 'coordination.k8s.io', 'stable.example.com', 'widgets.example.org'],
    );
    assert.deepEqual(
      list.items[2].versions.map((v) => v.version),
      ['v1', 'v1beta1'],
    );
    const crontabs = list.items[2].versions[0].resources![0];
    assert.equal(crontabs.scope, 'Namespaced');
    assert.deepEqual(crontabs.categories, ['all']);
    assert.deepEqual(crontabs.shortNames, ['ct']);
    assert.deepEqual(crontabs.subresources!.find((s) => s.subresource === 'scale')!.responseKind, {
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
    const widgets = list.items[3].versions[0].resources![0];
    assert.equal(widgets.scope, 'Cluster');
    assert.equal('subresources' in widgets, false);
    assert.equal('shortNames' in widgets, false);
  });
});

describe('aggregated discovery response', () => {
  const defs = allTestDefinitions();

  it('sets a quoted uppercase sha512 ETag of the body and the negotiated Content-Type', () => {
    const r = aggregatedDiscoveryResponse(defs, 'apis', 'v2', V2);
    assert.equal(r.status, 200);
    const expected = createHash('sha512').update(r.body).digest('hex').toUpperCase();
    assert.equal(r.headers.ETag, `"${expected}"`);
    assert.equal(r.headers['Content-Type'], V2);
    assert.equal(r.headers.Vary, 'Accept');
    assert.deepEqual(JSON.parse(r.body), aggregatedDiscovery(defs, 'apis', 'v2'));
  });

  it('answers 304 to a matching If-None-Match, 200 otherwise', () => {
    const first = aggregatedDiscoveryResponse(defs, 'api', 'v2', V2);
    const again = aggregatedDiscoveryResponse(defs, 'api', 'v2', V2, first.headers.ETag);
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.ETag, first.headers.ETag);
    assert.equal(aggregatedDiscoveryResponse(defs, 'api', 'v2', V2, '"stale"').status, 200);
  });

  it('changes the ETag with the document', () => {
    const v2 = aggregatedDiscoveryResponse(defs, 'api', 'v2', V2).headers.ETag;
    const beta = aggregatedDiscoveryResponse(defs, 'api', 'v2beta1', V2).headers.ETag;
    assert.notEqual(v2, beta);
    const changed = [...defs.filter((d) => d !== configMaps), { ...configMaps, shortNames: ['cfg'] }];
    assert.notEqual(aggregatedDiscoveryResponse(changed, 'api', 'v2', V2).headers.ETag, v2);
    const same = [...defs];
    assert.equal(aggregatedDiscoveryResponse(same, 'api', 'v2', V2).headers.ETag, v2);
  });
});
