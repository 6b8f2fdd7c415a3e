/** Discovery read from a live Registry: documents follow each change at once, and per-version subresources. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry, type ResourceDefinition } from '../registry/index.js';
import { cronTabs, namespaces } from '../../test/support/definitions.js';
import { aggregatedDiscovery, aggregatedDiscoveryResponse } from './aggregated.js';
import { apiGroup, apiGroupList, apiResourceList } from './legacy.js';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** v1beta1 has only `status`, v1 the definition's `status` and `scale` */
const perVersion: ResourceDefinition = {
  ...cronTabs,
  perVersion: { v1beta1: { subresources: ['status'] } },
};

const groups = (r: Registry) => apiGroupList(r.definitions).groups.map((g) => g.name);
const resourceNames = (r: Registry, version: string) =>
  apiResourceList(r.definitions, 'stable.example.com', version)?.resources.map((x) => x.name);

describe('discovery following the registry', () => {
  it('shows a kind registered after the documents were served, and drops it once unregistered', () => {
    const r = new Registry();
    r.register(namespaces);
    assert.deepEqual(groups(r), []);
    const etag = aggregatedDiscoveryResponse(r.definitions, 'apis', 'v2', AGGREGATED).headers.ETag;

    r.register(cronTabs);
    assert.deepEqual(groups(r), ['stable.example.com']);
    assert.deepEqual(apiGroup(r.definitions, 'stable.example.com')?.preferredVersion.version, 'v1');
    assert.deepEqual(resourceNames(r, 'v1'), ['crontabs', 'crontabs/scale', 'crontabs/status']);
    const aggregated = aggregatedDiscoveryResponse(r.definitions, 'apis', 'v2', AGGREGATED);
    assert.notEqual(aggregated.headers.ETag, etag);
    assert.match(aggregated.body, /"resource":"crontabs"/);

    r.register({ ...cronTabs, shortNames: ['cron'] });
    const list = apiResourceList(r.definitions, 'stable.example.com', 'v1');
    assert.deepEqual(list?.resources[0].shortNames, ['cron'], 'a replaced definition shows at once');

    r.unregister('stable.example.com', 'crontabs');
    assert.deepEqual(groups(r), []);
    assert.equal(apiGroup(r.definitions, 'stable.example.com'), undefined);
    assert.equal(apiResourceList(r.definitions, 'stable.example.com', 'v1'), undefined);
    assert.equal(aggregatedDiscoveryResponse(r.definitions, 'apis', 'v2', AGGREGATED).headers.ETag, etag);
  });

  it("lists each version's own subresources, legacy and aggregated", () => {
    const r = new Registry();
    r.register(perVersion);
    assert.deepEqual(resourceNames(r, 'v1'), ['crontabs', 'crontabs/scale', 'crontabs/status']);
    assert.deepEqual(resourceNames(r, 'v1beta1'), ['crontabs', 'crontabs/status']);
    const versions = aggregatedDiscovery(r.definitions, 'apis', 'v2').items[0].versions;
    const subresources = Object.fromEntries(
      versions.map((v) => [v.version, v.resources![0].subresources?.map((s) => s.subresource)]),
    );
    assert.deepEqual(subresources, { v1: ['scale', 'status'], v1beta1: ['status'] });
  });
});
