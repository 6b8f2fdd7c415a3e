/**
 * Protobuf watch streams (`application/vnd.kubernetes.protobuf;stream=watch`) read back frame by frame by a
 * client of our own (client-node speaks no Protobuf): each frame a 4-byte length and a bare WatchEvent whose
 * object is the object's own `k8s\0` body, exactly the body a Protobuf GET answers.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { decodeProtobuf, listSchema, partialObjectMetadataSchema } from '../modules/codec/index.js';
import { configMapDefinition, leaseDefinition } from '../modules/kinds/index.js';
import { kubectlBinary } from './support/kubectl.js';
import { rawRequest } from './support/raw-request.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const cmSchema = configMapDefinition.schema;
const prefix = [0x6b, 0x38, 0x73, 0x00];

describe('Protobuf watch streams', () => {
  const s = useServer({ args: ['--history-retention=3s'] });
  const base = '/api/v1/namespaces/default/configmaps';
  const cm = (name: string, data: Record<string, string> = { a: '1' }) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels: { app: 'pb' } },
    data,
  });
  const listRv = async () => (await s.request('GET', base)).json.metadata.resourceVersion as string;

  before(async () => {
    await s.request('POST', base, { body: cm('first') });
  });

  it('ADDED, MODIFIED, DELETED arrive as length-prefixed WatchEvents around each object’s own body', async () => {
    const w = await openWatch(s, `${base}?watch=1&resourceVersion=${await listRv()}`, { protobuf: cmSchema });
    assert.equal(w.status, 200);
    assert.equal(w.contentType, `${PROTOBUF};stream=watch`);
    await s.request('POST', base, { body: cm('w1') });
    await s.request('PUT', `${base}/w1`, { body: cm('w1', { a: '2' }) });
    const current = await rawRequest(s, 'GET', `${base}/w1`, { accept: PROTOBUF });
    await s.request('DELETE', `${base}/w1`);

    const added = await w.next();
    const modified = await w.next();
    const deleted = await w.next();
    assert.deepEqual([added.type, modified.type, deleted.type], ['ADDED', 'MODIFIED', 'DELETED']);
    assert.deepEqual(added.object.data, { a: '1' });
    assert.equal(added.object.kind, 'ConfigMap');
    assert.equal(added.object.apiVersion, 'v1');
    assert.deepEqual(modified.object.data, { a: '2' });
    assert.equal(deleted.object.metadata.name, 'w1');
    // the WatchEvent itself is bare (field 1 first); the object inside carries the envelope
    assert.equal(modified.frame![0], 0x0a);
    assert.deepEqual([...modified.body!.subarray(0, 4)], prefix);
    // byte for byte what a Protobuf GET of the same revision answers
    assert.deepEqual(Buffer.from(modified.body!), current.body);
    assert.equal(w.pending(), 0);
    w.close();
  });

  it('watchers of the same change get the same bytes; a JSON watcher gets JSON', async () => {
    const rv = await listRv();
    const a = await openWatch(s, `${base}?watch=1&resourceVersion=${rv}`, { protobuf: cmSchema });
    const b = await openWatch(s, `${base}?watch=1&resourceVersion=${rv}`, {
      protobuf: cmSchema,
      accept: 'application/vnd.orch.protobuf;q=0.9, application/yaml;q=0.1',
    });
    const json = await openWatch(s, `${base}?watch=1&resourceVersion=${rv}`, {
      accept: 'application/json, application/vnd.kubernetes.protobuf',
    });
    assert.equal(json.contentType, 'application/json');
    await s.request('POST', base, { body: cm('shared') });
    const [ea, eb, ej] = await Promise.all([a.next(), b.next(), json.next()]);
    assert.deepEqual(ea.frame, eb.frame);
    assert.equal(ej.type, 'ADDED');
    assert.deepEqual(ea.object, ej.object);
    for (const w of [a, b, json]) w.close();
  });

  it('initial events, then the initial-events-end bookmark, in Protobuf', async () => {
    const w = await openWatch(
      s,
      `${base}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true` +
        '&labelSelector=app%3Dpb',
      { protobuf: cmSchema },
    );
    const names: string[] = [];
    let e = await w.next();
    while (e.type === 'ADDED') {
      names.push(e.object.metadata.name);
      e = await w.next();
    }
    assert.ok(names.includes('first') && names.includes('shared'), names.join());
    assert.equal(e.type, 'BOOKMARK');
    assert.equal(e.object.kind, 'ConfigMap');
    assert.equal(e.object.apiVersion, 'v1');
    assert.deepEqual(e.object.metadata.annotations, { 'k8s.io/initial-events-end': 'true' });
    assert.match(e.object.metadata.resourceVersion, /^\d+$/);
    w.close();
  });

  it('PartialObjectMetadata events in Protobuf (metadata informers)', async () => {
    const w = await openWatch(s, `${base}?watch=1&resourceVersion=${await listRv()}`, {
      protobuf: partialObjectMetadataSchema,
      accept: `${PROTOBUF};as=PartialObjectMetadata;v=v1;g=meta.k8s.io,${PROTOBUF}`,
    });
    assert.equal(w.contentType, `${PROTOBUF};stream=watch`);
    const created = await s.request('POST', base, { body: cm('meta-only') });
    const e = await w.next();
    assert.equal(e.type, 'ADDED');
    assert.equal(e.object.kind, 'PartialObjectMetadata');
    assert.equal(e.object.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(e.object.metadata, created.json.metadata);
    assert.equal(e.object.data, undefined);
    w.close();
  });

  it('a Lease watch decodes with the Lease message (a named group)', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const rv = (await s.request('GET', leases)).json.metadata.resourceVersion;
    const w = await openWatch(s, `${leases}?watch=1&resourceVersion=${rv}`, {
      protobuf: leaseDefinition.schema,
    });
    await s.request('POST', leases, {
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'l' },
        spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2026-01-01T00:00:00.123456Z' },
      },
    });
    const e = await w.next();
    assert.equal(e.object.apiVersion, 'coordination.k8s.io/v1');
    assert.deepEqual(e.object.spec, {
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      renewTime: '2026-01-01T00:00:00.123456Z',
    });
    w.close();
  });

  it('kubectl events -w (a typed client-go watch) reads our Protobuf frames', async () => {
    const args = ['--kubeconfig', s.kubeconfig, 'events', '-w', '-n', 'default', '-v=8'];
    const child = spawn(await kubectlBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    try {
      const deadline = Date.now() + 15_000;
      // -v=8 logs the answers' headers: the watch is open once its Protobuf stream type shows
      while (
        !/Content-Type: application\/vnd\.kubernetes\.protobuf;stream=watch/.test(err) &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 100));
      for (const reason of ['FirstStreamed', 'SecondStreamed']) {
        const r = await s.request('POST', '/api/v1/namespaces/default/events', {
          body: {
            apiVersion: 'v1',
            kind: 'Event',
            metadata: { name: `ev-${reason.toLowerCase()}` },
            involvedObject: { kind: 'ConfigMap', name: 'first', namespace: 'default' },
            reason,
            message: `streamed ${reason}`,
            type: 'Normal',
            source: { component: 'tester' },
            firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
            lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
            count: 1,
          },
        });
        assert.equal(r.status, 201, r.text);
      }
      while (!/SecondStreamed/.test(out) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      assert.match(out, /Normal\s+FirstStreamed\s+ConfigMap\/first\s+streamed FirstStreamed/, err);
      assert.match(out, /Normal\s+SecondStreamed\s+ConfigMap\/first\s+streamed SecondStreamed/, err);
      assert.doesNotMatch(err, /unable to decode|Unhandled Error|watch error/i);
    } finally {
      child.kill();
    }
  });

  it('a start older than the history window: an ERROR event whose object is a Protobuf Status', async () => {
    const old = await listRv();
    await s.request('POST', base, { body: cm('aging') });
    await new Promise((r) => setTimeout(r, 5000));
    await s.request('POST', base, { body: cm('aging-2') });
    const w = await openWatch(s, `${base}?watch=1&resourceVersion=${old}`, { protobuf: cmSchema });
    const e = await w.next();
    await w.ended;
    assert.equal(e.type, 'ERROR');
    assert.equal(e.object.kind, 'Status');
    assert.equal(e.object.apiVersion, 'v1');
    assert.equal(e.object.code, 410);
    assert.equal(e.object.reason, 'Expired');
  });

  it('errors before the stream starts are Protobuf Status bodies', async () => {
    const r = await rawRequest(s, 'GET', `${base}?watch=1&timeoutSeconds=x`, { accept: PROTOBUF });
    assert.equal(r.status, 400);
    assert.equal(r.type, PROTOBUF);
    assert.deepEqual([...r.body.subarray(0, 4)], prefix);
  });

  it('YAML has no stream form: a watch that prefers it is 406, listing the stream types', async () => {
    for (const accept of ['application/yaml', 'application/yaml, application/json', 'text/html']) {
      const r = await rawRequest(s, 'GET', `${base}?watch=1`, { accept });
      assert.equal(r.status, 406, accept);
      const status = JSON.parse(r.body.toString());
      assert.equal(status.reason, 'NotAcceptable');
      assert.equal(
        status.message,
        'only the following media types are accepted: application/json;stream=watch, ' +
          'application/vnd.kubernetes.protobuf;stream=watch',
      );
    }
    // stream=watch asks for the stream form explicitly; a plain list with it is an ordinary list
    const list = await rawRequest(s, 'GET', base, { accept: `${PROTOBUF};stream=watch` });
    assert.equal(list.type, PROTOBUF);
    assert.equal(decodeProtobuf(list.body, listSchema(cmSchema)).kind, 'ConfigMapList');
  });
});
