/**
 * events.k8s.io/v1 Events are the core/v1 Events, seen through another API: written through either, read,
 * listed, watched, updated and deleted through the other with kube's field mapping and the same
 * resourceVersion; each API's own write rules; kubectl (events, get events) and client-node; Protobuf for
 * both; discovery, OpenAPI, the automanaged APIService and RBAC by the requested group. Last, the in-process
 * recorder writing a series.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, EventsV1Api, KubeConfig } from '@kubernetes/client-node';
import { decodeProtobuf, listSchema } from '../modules/codec/index.js';
import { eventDefinition, eventsEventDefinition } from '../modules/kinds/index.js';
import { EventRecorder, referenceTo } from '../modules/events/index.js';
import { GenericStore, Registry } from '../modules/registry/index.js';
import { testDatabase, type TestDatabase } from './support/database.js';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { kubectlOf } from './support/kubectl.js';
import { rawRequest } from './support/raw-request.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const core = (name = '') => `/api/v1/namespaces/default/events${name ? `/${name}` : ''}`;
const events = (name = '') => `/apis/events.k8s.io/v1/namespaces/default/events${name ? `/${name}` : ''}`;

const pod = (name: string) => ({
  kind: 'Pod',
  namespace: 'default',
  name,
  uid: `uid-${name}`,
  apiVersion: 'v1',
});

/** an old-style event, as kubelets and kubectl-era controllers write it */
const coreEvent = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: pod(name.split('.')[0]),
  reason: 'Pulled',
  message: 'Container image "nginx" already present on machine',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-01-01T00:00:00Z',
  lastTimestamp: '2024-01-01T00:00:05Z',
  count: 2,
  type: 'Normal',
  ...extra,
});

/** a new-style event, as kube's events library writes it */
const newEvent = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2024-01-01T00:00:00.123456Z',
  reportingController: 'default-scheduler',
  reportingInstance: 'default-scheduler-host1',
  action: 'Binding',
  reason: 'Scheduled',
  regarding: pod(name.split('.')[0]),
  note: 'Successfully assigned default/web-2 to node-1',
  type: 'Normal',
  ...extra,
});

describe('events.k8s.io/v1 over the core Events', () => {
  const s = useServer();
  const { ok: k, rows } = kubectlOf(s);
  let coreApi: CoreV1Api;
  let eventsApi: EventsV1Api;
  before(() => {
    const kc = new KubeConfig();
    kc.loadFromFile(s.kubeconfig);
    coreApi = kc.makeApiClient(CoreV1Api);
    eventsApi = kc.makeApiClient(EventsV1Api);
  });

  it('written through core/v1, read and listed through events.k8s.io/v1 with kube’s mapping', async () => {
    const created = await coreApi.createNamespacedEvent({
      namespace: 'default',
      body: coreEvent('web-1.a1', { related: pod('other') }) as never,
    });
    const rv = created.metadata?.resourceVersion;
    const got = await s.request('GET', events('web-1.a1'));
    assert.equal(got.status, 200);
    const { metadata, ...rest } = got.json;
    assert.equal(metadata.resourceVersion, rv);
    assert.equal(metadata.uid, created.metadata?.uid);
    assert.deepEqual(rest, {
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      reason: 'Pulled',
      regarding: pod('web-1'),
      related: pod('other'),
      note: 'Container image "nginx" already present on machine',
      type: 'Normal',
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2024-01-01T00:00:05Z',
      deprecatedCount: 2,
    });
    const viaClient = await eventsApi.readNamespacedEvent({ name: 'web-1.a1', namespace: 'default' });
    assert.equal(viaClient.note, created.message);
    assert.equal(viaClient.regarding?.name, 'web-1');

    const list = await eventsApi.listNamespacedEvent({
      namespace: 'default',
      fieldSelector: 'regarding.name=web-1',
    });
    assert.equal(list.apiVersion, 'events.k8s.io/v1');
    assert.equal(list.kind, 'EventList');
    assert.deepEqual(
      list.items.map((e) => [e.metadata?.name, e.metadata?.resourceVersion, e.deprecatedCount]),
      [['web-1.a1', rv, 2]],
    );
    // each API selects by its own field names, as kube's field label conversions say
    const bySource = await s.request('GET', `${events()}?fieldSelector=source=kubelet,type=Normal`);
    assert.deepEqual(
      bySource.json.items.map((e: any) => e.metadata.name),
      ['web-1.a1'],
    );
    const wrong = await s.request('GET', `${events()}?fieldSelector=involvedObject.name=web-1`);
    assert.equal(wrong.status, 400);
    assert.match(wrong.json.message, /field label not supported: involvedObject\.name/);
    const coreWrong = await s.request('GET', `${core()}?fieldSelector=regarding.name=web-1`);
    assert.equal(coreWrong.status, 400);
  });

  it('written through events.k8s.io/v1, read through core/v1 and by kubectl', async () => {
    const created = await eventsApi.createNamespacedEvent({
      namespace: 'default',
      body: newEvent('web-2.b2') as never,
    });
    assert.equal(created.note, 'Successfully assigned default/web-2 to node-1');
    const viaCore = await coreApi.readNamespacedEvent({ name: 'web-2.b2', namespace: 'default' });
    assert.equal(viaCore.metadata?.resourceVersion, created.metadata?.resourceVersion);
    assert.equal(viaCore.message, 'Successfully assigned default/web-2 to node-1');
    assert.equal(viaCore.reportingComponent, 'default-scheduler');
    assert.equal(viaCore.reportingInstance, 'default-scheduler-host1');
    assert.equal(viaCore.involvedObject.name, 'web-2');
    assert.equal(viaCore.action, 'Binding');
    const json = JSON.parse(await k(['get', 'events', 'web-2.b2', '-o', 'json']));
    assert.equal(json.apiVersion, 'v1');
    assert.equal(json.message, created.note);
    assert.equal(json.note, undefined);
    const viaKubectl = JSON.parse(await k(['get', 'events.v1.events.k8s.io', 'web-2.b2', '-o', 'json']));
    assert.equal(viaKubectl.apiVersion, 'events.k8s.io/v1');
    assert.equal(viaKubectl.note, created.note);
  });

  it('each API keeps its own write rules', async () => {
    // the old-style body is fine through core/v1 ...
    const old = coreEvent('web-3.c3');
    const refused = await s.request('POST', events(), {
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'web-3.c3' },
        regarding: old.involvedObject,
        reason: 'Pulled',
        note: 'n'.repeat(1025),
        type: 'Info',
        deprecatedCount: 2,
      },
    });
    // ... but through events.k8s.io/v1 a new event needs eventTime and no deprecated fields
    assert.equal(refused.status, 422);
    assert.equal(refused.json.reason, 'Invalid');
    assert.equal(refused.json.details.group, 'events.k8s.io');
    assert.deepEqual(
      refused.json.details.causes.map((c: any) => `${c.field}: ${c.message}`),
      [
        'eventTime: Required value',
        'type: Invalid value: "": has invalid value: Info',
        'count: Invalid value: "": needs to be unset',
      ],
    );
    const missing = await s.request('POST', events(), {
      body: newEvent('web-3.c4', { reportingController: undefined, action: undefined }),
    });
    assert.equal(missing.status, 422);
    assert.deepEqual(
      missing.json.details.causes
        .filter((c: any) => c.reason === 'FieldValueRequired')
        .map((c: any) => c.field),
      ['reportingController', 'action'],
    );
    assert.equal((await s.request('POST', core(), { body: old })).status, 201);
    // an update through events.k8s.io/v1 may not change what the event says
    const changed = await s.request('GET', events('web-3.c3'));
    changed.json.note = 'rewritten';
    const put = await s.request('PUT', events('web-3.c3'), { body: changed.json });
    assert.equal(put.status, 422);
    assert.match(put.json.message, /message: Invalid value: "rewritten": field is immutable/);
    // through core/v1 it may
    const viaCore = await s.request('GET', core('web-3.c3'));
    viaCore.json.message = 'rewritten';
    assert.equal((await s.request('PUT', core('web-3.c3'), { body: viaCore.json })).status, 200);
  });

  it('a change through one API reaches watchers of the other, in order and with the same resourceVersion', async () => {
    const listRv = (await s.request('GET', core())).json.metadata.resourceVersion;
    const eventsWatch = await openWatch(s, `${events()}?watch=1&resourceVersion=${listRv}`);
    const coreWatch = await openWatch(s, `${core()}?watch=1&resourceVersion=${listRv}`);
    try {
      const created = await s.request('POST', core(), { body: coreEvent('web-4.d4') });
      assert.equal(created.status, 201);
      const before = created.json;
      before.count = 3;
      before.lastTimestamp = '2024-01-01T00:00:09Z';
      const updated = await s.request('PUT', core('web-4.d4'), { body: before });
      assert.equal(updated.status, 200);
      const series = { count: 2, lastObservedTime: '2024-01-01T00:01:00.000000Z' };
      const patched = await s.request('PATCH', events('web-4.d4'), {
        body: { series },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      assert.equal(patched.status, 200);
      const deleted = await s.request('DELETE', events('web-4.d4'));
      assert.equal(deleted.status, 200);
      assert.deepEqual([deleted.json.kind, deleted.json.details.group], ['Status', 'events.k8s.io']);

      const seen = [
        await eventsWatch.next(),
        await eventsWatch.next(),
        await eventsWatch.next(),
        await eventsWatch.next(),
      ];
      assert.deepEqual(
        seen.map((e) => [e.type, e.object.apiVersion, e.object.metadata.resourceVersion]),
        [
          ['ADDED', 'events.k8s.io/v1', created.json.metadata.resourceVersion],
          ['MODIFIED', 'events.k8s.io/v1', updated.json.metadata.resourceVersion],
          ['MODIFIED', 'events.k8s.io/v1', patched.json.metadata.resourceVersion],
          ['DELETED', 'events.k8s.io/v1', seen[3].object.metadata.resourceVersion],
        ],
      );
      assert.ok(
        Number(seen[3].object.metadata.resourceVersion) > Number(patched.json.metadata.resourceVersion),
      );
      assert.equal(seen[1].object.deprecatedCount, 3);
      assert.equal(seen[1].object.note, coreEvent('x').message);
      const coreSeen = [
        await coreWatch.next(),
        await coreWatch.next(),
        await coreWatch.next(),
        await coreWatch.next(),
      ];
      assert.deepEqual(
        coreSeen.map((e) => [e.type, e.object.apiVersion, e.object.metadata.resourceVersion]),
        seen.map((e) => [e.type, 'v1', e.object.metadata.resourceVersion]),
      );
      assert.deepEqual(coreSeen[2].object.series, series);
      assert.equal(coreSeen[2].object.message, coreEvent('x').message);
    } finally {
      eventsWatch.close();
      coreWatch.close();
    }
  });

  it('kubectl events and kubectl get events list events written through either API', async () => {
    const listed = await rows(['events']);
    assert.deepEqual(listed[0], ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    const objects = listed.slice(1).map((r) => r[3]);
    // kubectl events prints the kind as it is (Pod/web-1)
    assert.ok(objects.includes('Pod/web-1') && objects.includes('Pod/web-2'), objects.join('\n'));
    const table = await rows(['get', 'events', '-o', 'wide']);
    assert.deepEqual(table[0], [
      'LAST SEEN',
      'TYPE',
      'REASON',
      'OBJECT',
      'SUBOBJECT',
      'SOURCE',
      'MESSAGE',
      'FIRST SEEN',
      'COUNT',
      'NAME',
    ]);
    const viaEvents = await rows(['get', 'events.events.k8s.io']);
    assert.deepEqual(viaEvents[0], ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    const scheduled = viaEvents.find((r) => r[2] === 'Scheduled');
    assert.deepEqual(scheduled?.slice(1), [
      'Normal',
      'Scheduled',
      'pod/web-2',
      'Successfully assigned default/web-2 to node-1',
    ]);
    assert.ok(viaEvents.some((r) => r[2] === 'Pulled' && r[3] === 'pod/web-1'));
    // each API's own field names select the same event
    const byCore = await rows(['get', 'events', '--field-selector', 'involvedObject.name=web-2']);
    const byEvents = await rows(['get', 'events.events.k8s.io', '--field-selector', 'regarding.name=web-2']);
    assert.deepEqual([byCore.length, byEvents.length], [2, 2]);
    assert.deepEqual(byCore[1].slice(1), byEvents[1].slice(1));
  });

  it('Protobuf through both APIs: one object, two messages', async () => {
    const asEvents = await rawRequest(s, 'GET', events('web-2.b2'), { accept: PROTOBUF });
    assert.equal(asEvents.status, 200);
    assert.equal(asEvents.type, PROTOBUF);
    const decoded = decodeProtobuf(asEvents.body, eventsEventDefinition.schema);
    assert.equal(decoded.apiVersion, 'events.k8s.io/v1');
    assert.equal(decoded.note, 'Successfully assigned default/web-2 to node-1');
    assert.equal(decoded.reportingController, 'default-scheduler');
    const asCore = decodeProtobuf(
      (await rawRequest(s, 'GET', core('web-2.b2'), { accept: PROTOBUF })).body,
      eventDefinition.schema,
    );
    assert.equal(asCore.message, decoded.note);
    assert.equal((asCore.metadata as any).resourceVersion, (decoded.metadata as any).resourceVersion);
    const list = await rawRequest(s, 'GET', events(), { accept: PROTOBUF });
    const items = decodeProtobuf(list.body, listSchema(eventsEventDefinition.schema)).items as any[];
    assert.ok(items.length >= 3);
    assert.ok(items.every((i) => i.apiVersion === undefined || i.apiVersion === 'events.k8s.io/v1'));
    // a Protobuf create through events.k8s.io/v1
    const { encodeProtobuf } = await import('../modules/codec/index.js');
    const body = encodeProtobuf(newEvent('web-5.e5'), eventsEventDefinition.schema);
    const created = await rawRequest(
      s,
      'POST',
      events(),
      { 'content-type': PROTOBUF, accept: PROTOBUF },
      body,
    );
    assert.equal(created.status, 201, created.body.toString());
    assert.equal((await s.request('GET', core('web-5.e5'))).json.reportingComponent, 'default-scheduler');
  });

  it('server-side apply through events.k8s.io/v1 keeps each API’s field names in managedFields', async () => {
    const applied = await s.request('PATCH', `${events('web-6.f6')}?fieldManager=tester`, {
      raw: JSON.stringify(newEvent('web-6.f6')),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    assert.equal(applied.status, 201, applied.text);
    const entry = applied.json.metadata.managedFields[0];
    assert.equal(entry.apiVersion, 'events.k8s.io/v1');
    assert.ok(entry.fieldsV1['f:note'] && entry.fieldsV1['f:regarding']);
    const viaCore = (await s.request('GET', core('web-6.f6'))).json;
    assert.ok(viaCore.metadata.managedFields[0].fieldsV1['f:message']);
    assert.equal(viaCore.metadata.managedFields[0].fieldsV1['f:note'], undefined);
    // the same apply again changes nothing and conflicts with nobody
    const again = await s.request('PATCH', `${events('web-6.f6')}?fieldManager=tester`, {
      raw: JSON.stringify(newEvent('web-6.f6')),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.metadata.resourceVersion, applied.json.metadata.resourceVersion);
  });

  it('discovery, OpenAPI and the automanaged APIService show events.k8s.io/v1', async () => {
    const v1 = await s.request('GET', '/apis/events.k8s.io/v1');
    const resource = v1.json.resources.find((r: any) => r.name === 'events');
    const coreResource = (await s.request('GET', '/api/v1')).json.resources.find(
      (r: any) => r.name === 'events',
    );
    assert.equal(resource.kind, 'Event');
    assert.deepEqual(resource.shortNames, ['ev']);
    assert.equal(resource.storageVersionHash, coreResource.storageVersionHash);
    const aggregated = await s.request('GET', '/apis', { headers: { accept: AGGREGATED } });
    const group = aggregated.json.items.find((g: any) => g.metadata.name === 'events.k8s.io');
    assert.equal(group.versions[0].version, 'v1');
    assert.equal(group.versions[0].resources[0].resource, 'events');
    const v3 = await s.request('GET', '/openapi/v3/apis/events.k8s.io/v1');
    const schemas = v3.json.components.schemas;
    assert.ok(schemas['io.k8s.api.events.v1.Event'].properties.note);
    assert.deepEqual(schemas['io.k8s.api.events.v1.EventSeries'].required, ['count', 'lastObservedTime']);
    const v2 = await s.request('GET', '/openapi/v2');
    assert.ok(v2.json.definitions['io.k8s.api.events.v1.EventList']);
    assert.ok(v2.json.paths['/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}']);
    const apiService = await s.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.events.k8s.io');
    assert.equal(apiService.status, 200);
    assert.equal(apiService.json.metadata.labels['kube-aggregator.kubernetes.io/automanaged'], 'onstart');
  });

  it('RBAC decides by the group asked for', async () => {
    const role = await s.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      body: {
        metadata: { name: 'core-events-reader' },
        rules: [{ apiGroups: [''], resources: ['events'], verbs: ['get', 'list'] }],
      },
    });
    assert.equal(role.status, 201);
    const binding = await s.request(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
      {
        body: {
          metadata: { name: 'core-events-reader' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'core-events-reader' },
          subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
        },
      },
    );
    assert.equal(binding.status, 201);
    const as = { headers: { 'impersonate-user': 'alice' } };
    assert.equal((await s.request('GET', core(), as)).status, 200);
    const denied = await s.request('GET', events(), as);
    assert.equal(denied.status, 403);
    assert.match(denied.json.message, /"events" in API group "events\.k8s\.io"/);
  });
});

describe('the in-process event recorder', () => {
  let db: TestDatabase;
  let s: InProcessServer;
  before(async () => {
    db = await testDatabase();
    s = await startInProcess(db.url);
  });
  after(async () => {
    await s?.stop();
    await db?.drop();
  });

  it('writes a new event, then a repeat as its series, through the store', async () => {
    const registry = s.app.get(Registry);
    let nowNs = 1_704_067_200_000_000_000n;
    const recorder = new EventRecorder(
      s.app.get(GenericStore),
      () => registry.storedKind('events.k8s.io', 'events')!,
      { reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-test' },
      { clock: () => nowNs, log: (m) => assert.fail(m) },
    );
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', uid: 'n1' } };
    const report = {
      regarding: referenceTo(node),
      type: 'Warning' as const,
      reason: 'NodeNotReady',
      action: 'NodeNotReady',
      note: 'Node node-1 status is now: NodeNotReady',
    };
    recorder.record(report);
    await recorder.flush();
    const first = (await s.request('GET', `/apis/events.k8s.io/v1/namespaces/default/events`)).json.items;
    assert.equal(first.length, 1);
    assert.equal(first[0].metadata.name, `node-1.${nowNs.toString(16)}`);
    assert.equal(first[0].series, undefined);
    assert.deepEqual(first[0].regarding, { kind: 'Node', name: 'node-1', uid: 'n1', apiVersion: 'v1' });

    nowNs += 10_000_000_000n;
    recorder.record(report);
    nowNs += 10_000_000_000n;
    recorder.record(report);
    await recorder.flush();
    const after = (await s.request('GET', `/api/v1/namespaces/default/events`)).json.items;
    assert.equal(after.length, 1);
    assert.equal(after[0].metadata.name, first[0].metadata.name);
    assert.deepEqual(after[0].series, { count: 3, lastObservedTime: '2024-01-01T00:00:20.000000Z' });
    assert.equal(after[0].reportingComponent, 'default-scheduler');
    assert.equal(after[0].message, report.note);

    // gone meanwhile (deleted): the next repeat writes it again, with its series
    await s.request('DELETE', `/api/v1/namespaces/default/events/${first[0].metadata.name}`);
    nowNs += 1_000_000_000n;
    recorder.record(report);
    await recorder.flush();
    const again = (await s.request('GET', `/apis/events.k8s.io/v1/namespaces/default/events`)).json.items;
    assert.deepEqual(
      again.map((e: any) => [e.metadata.name, e.series?.count]),
      [[first[0].metadata.name, 4]],
    );
  });
});
