/**
 * Discovery on an aggregation host, against real backends over HTTP: /apis, /apis/<group> and aggregated
 * discovery include the remote APIServices' group-versions, ordered as kube-aggregator orders them, fetched
 * from the backend's aggregated /apis or its legacy APIResourceList, and marked Stale when a backend stops
 * answering.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AGGREGATED_DISCOVERY_ACCEPT,
  apiGroupList,
  mergedAggregatedDiscovery,
  mergedAggregatedDiscoveryResponse,
  mergedApiGroup,
  mergedApiGroupList,
  remoteDiscovery,
  type RemoteDiscovery,
} from '../modules/discovery/index.js';
import { allTestDefinitions } from './support/definitions.js';
import { eventually } from './support/eventually.js';
import { apiService, Backend, HttpRemoteApis } from './support/remote-backend.js';

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const gadgets = (extra: object[] = []) => ({
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  metadata: {},
  items: [
    {
      metadata: { name: 'metrics.example.io' },
      versions: [
        {
          version: 'v1',
          freshness: 'Current',
          resources: [
            {
              resource: 'gadgets',
              // a field we do not know is dropped, and the entry is written in kube's field order
              unknownField: true,
              verbs: ['get', 'list'],
              singularResource: 'gadget',
              scope: 'Namespaced',
              responseKind: { group: '', version: '', kind: 'Gadget' },
              shortNames: ['gd'],
              subresources: [{ subresource: 'status', verbs: ['get'] }],
            },
            ...extra,
          ],
        },
        { version: 'v1beta1', freshness: 'Current', resources: [] },
      ],
    },
    { metadata: { name: 'unrelated.example.io' }, versions: [{ version: 'v1', resources: [] }] },
  ],
});

const thingsList = {
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: 'old.example.io/v1',
  resources: [
    { name: 'things', singularName: 'thing', namespaced: false, kind: 'Thing', verbs: ['get', 'list'] },
    { name: 'things/status', singularName: '', namespaced: false, kind: 'Thing', verbs: ['get', 'patch'] },
  ],
};

describe('discovery with remote APIServices', () => {
  const defs = allTestDefinitions();
  const modern = new Backend();
  const legacy = new Backend();
  const remote = new HttpRemoteApis();
  let cache: RemoteDiscovery;

  before(async () => {
    await modern.start();
    await legacy.start();
    modern.routes.set('/apis', (accept) =>
      accept.includes('as=APIGroupDiscoveryList') ? { contentType: V2, body: gadgets() } : undefined,
    );
    // an older server: /apis is a plain APIGroupList whatever the Accept
    legacy.json('/apis', { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    legacy.json('/apis/old.example.io/v1', thingsList);
    remote.set([
      apiService('metrics.example.io', 'v1', modern.url, 17900, 15),
      apiService('metrics.example.io', 'v1beta1', modern.url, 17900, 9),
      apiService('old.example.io', 'v1', legacy.url, 1000, 15),
    ]);
    cache = remoteDiscovery(remote);
    await cache.refresh();
  });

  after(async () => {
    cache.close();
    await modern.stop();
    await legacy.stop();
  });

  it('lists remote groups in /apis by priority, then APIService name, versions by priority', () => {
    const list = mergedApiGroupList(defs, cache.snapshot);
    assert.deepEqual(
      list.groups.map((g) => [g.name, g.versions.map((v) => v.version), g.preferredVersion.version]),
      [
        ['metrics.example.io', ['v1', 'v1beta1'], 'v1'],
        ['apps', ['v1'], 'v1'],
        ['coordination.k8s.io', ['v1'], 'v1'],
        // priority 1000 each: by the APIService names v1.old.example.io < v1.stable.example.com < v1.widgets...
        ['old.example.io', ['v1'], 'v1'],
        ...apiGroupList(defs)
          .groups.slice(2)
          .map((g) => [g.name, g.versions.map((v) => v.version), g.preferredVersion.version]),
      ],
    );
    assert.deepEqual(list.groups[0].versions[1], {
      groupVersion: 'metrics.example.io/v1beta1',
      version: 'v1beta1',
    });
  });

  it('keeps the local /apis as it is without remote APIServices', () => {
    assert.equal(mergedApiGroupList(defs, { entries: [] }), apiGroupList(defs));
  });

  it('answers /apis/<group> of a remote group from its APIServices, and nothing for unknown groups', () => {
    assert.deepEqual(mergedApiGroup(defs, cache.snapshot, 'metrics.example.io'), {
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'metrics.example.io',
      versions: [
        { groupVersion: 'metrics.example.io/v1', version: 'v1' },
        { groupVersion: 'metrics.example.io/v1beta1', version: 'v1beta1' },
      ],
      preferredVersion: { groupVersion: 'metrics.example.io/v1', version: 'v1' },
    });
    assert.equal(mergedApiGroup(defs, cache.snapshot, 'unrelated.example.io'), undefined);
    assert.equal(mergedApiGroup(defs, cache.snapshot, 'apps')?.name, 'apps');
  });

  it("asks the backend's /apis for the aggregated form, and falls back to the group-version's list", () => {
    assert.ok(modern.requests.includes(`/apis ${AGGREGATED_DISCOVERY_ACCEPT}`));
    assert.ok(!modern.requests.some((r) => r.startsWith('/apis/metrics.example.io')));
    assert.ok(legacy.requests.includes('/apis/old.example.io/v1 application/json'));
  });

  for (const version of ['v2', 'v2beta1'] as const) {
    it(`includes the remote group-versions in aggregated discovery ${version}`, () => {
      const doc = mergedAggregatedDiscovery(defs, cache.snapshot, version);
      assert.equal(doc.apiVersion, `apidiscovery.k8s.io/${version}`);
      const names = doc.items.map((g) => g.metadata.name);
      assert.deepEqual(names.slice(0, 3), ['metrics.example.io', 'apps', 'coordination.k8s.io']);
      // priority ties broken by group name in this document
      assert.deepEqual(names.slice(3), ['old.example.io', 'stable.example.com', 'widgets.example.org']);
      const metrics = doc.items[0];
      assert.equal(
        JSON.stringify(metrics.metadata),
        '{"name":"metrics.example.io","creationTimestamp":null}',
      );
      assert.deepEqual(JSON.parse(JSON.stringify(metrics.versions)), [
        {
          version: 'v1',
          resources: [
            {
              resource: 'gadgets',
              responseKind: { group: '', version: '', kind: 'Gadget' },
              scope: 'Namespaced',
              singularResource: 'gadget',
              verbs: ['get', 'list'],
              shortNames: ['gd'],
              subresources: [
                { subresource: 'status', responseKind: { group: '', version: '', kind: '' }, verbs: ['get'] },
              ],
            },
          ],
          freshness: 'Current',
        },
        { version: 'v1beta1', freshness: 'Current' },
      ]);
      assert.deepEqual(JSON.parse(JSON.stringify(doc.items[3].versions)), [
        {
          version: 'v1',
          resources: [
            {
              resource: 'things',
              responseKind: { group: '', version: '', kind: 'Thing' },
              scope: 'Cluster',
              singularResource: 'thing',
              verbs: ['get', 'list'],
              subresources: [
                {
                  subresource: 'status',
                  responseKind: { group: '', version: '', kind: 'Thing' },
                  verbs: ['get', 'patch'],
                },
              ],
            },
          ],
          freshness: 'Current',
        },
      ]);
    });
  }

  it('builds each merged document once per change', () => {
    const a = mergedAggregatedDiscovery(defs, cache.snapshot, 'v2');
    assert.equal(mergedAggregatedDiscovery(defs, cache.snapshot, 'v2'), a);
    const r = mergedAggregatedDiscoveryResponse(defs, cache.snapshot, 'v2', V2);
    assert.equal(mergedAggregatedDiscoveryResponse(defs, cache.snapshot, 'v2', V2).body, r.body);
    assert.equal(
      mergedAggregatedDiscoveryResponse(defs, cache.snapshot, 'v2', V2, r.headers.ETag).status,
      304,
    );
  });

  it('keeps its snapshot (and ETag) when a refresh brings nothing new, and changes both when it does', async () => {
    const before = cache.snapshot;
    const etag = mergedAggregatedDiscoveryResponse(defs, before, 'v2', V2).headers.ETag;
    await cache.refresh();
    assert.equal(cache.snapshot, before);
    const widget = {
      resource: 'dials',
      responseKind: { group: '', version: '', kind: 'Dial' },
      scope: 'Cluster',
      singularResource: 'dial',
      verbs: ['get'],
    };
    modern.routes.set('/apis', () => ({ contentType: V2, body: gadgets([widget]) }));
    await cache.refresh();
    assert.notEqual(cache.snapshot, before);
    const r = mergedAggregatedDiscoveryResponse(defs, cache.snapshot, 'v2', V2);
    assert.notEqual(r.headers.ETag, etag);
    assert.ok(r.body.includes('"dials"'));
  });

  it('marks a version Stale, keeping what it had, when its backend stops answering', async () => {
    legacy.json('/apis', { message: 'down' }, 503);
    await cache.refresh();
    const old = mergedAggregatedDiscovery(defs, cache.snapshot, 'v2').items.find(
      (g) => g.metadata.name === 'old.example.io',
    )!;
    assert.equal(old.versions[0].freshness, 'Stale');
    assert.equal(old.versions[0].resources?.[0].resource, 'things');
    // metrics.example.io stays Current
    assert.equal(
      mergedAggregatedDiscovery(defs, cache.snapshot, 'v2').items[0].versions[0].freshness,
      'Current',
    );
    legacy.json('/apis', { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    await cache.refresh();
    const back = mergedAggregatedDiscovery(defs, cache.snapshot, 'v2').items.find(
      (g) => g.metadata.name === 'old.example.io',
    )!;
    assert.equal(back.versions[0].freshness, 'Current');
  });

  it('follows APIService changes: a new one is fetched, an unreachable one listed Stale and empty, a removed one gone', async () => {
    const gone = new Backend();
    await gone.start();
    const deadUrl = gone.url;
    await gone.stop();
    remote.set([
      apiService('metrics.example.io', 'v1', modern.url, 17900, 15),
      apiService('dead.example.io', 'v1', deadUrl, 500, 5),
    ]);
    // listed at once in /apis (it reads the APIServices), in aggregated discovery once fetched
    assert.ok(mergedApiGroupList(defs, cache.snapshot).groups.some((g) => g.name === 'dead.example.io'));
    await eventually(
      () => cache.snapshot.entries.every((e) => e.state !== 'pending'),
      'the new APIService fetched',
    );
    const doc = mergedAggregatedDiscovery(defs, cache.snapshot, 'v2');
    const names = doc.items.map((g) => g.metadata.name);
    assert.ok(!names.includes('old.example.io'));
    assert.equal(names.at(-1), 'dead.example.io');
    assert.deepEqual(JSON.parse(JSON.stringify(doc.items.at(-1)!.versions)), [
      { version: 'v1', freshness: 'Stale' },
    ]);
    assert.deepEqual(
      doc.items[0].versions.map((v) => v.version),
      ['v1'],
    );
  });
});
