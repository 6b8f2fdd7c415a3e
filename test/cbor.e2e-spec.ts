/**
 * CBOR on the wire (feature gate CBORServingAndStorage, alpha): off by default (406/415), and when on, objects,
 * lists, errors and DeleteOptions in `application/cbor`, watches as `application/cbor-seq` read item by item,
 * apply configurations as `application/apply-patch+cbor`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCbor, encodeCbor, hasSelfDescribedPrefix } from '../modules/codec/index.js';
import { secretDefinition } from '../modules/kinds/index.js';
import { rawRequest } from './support/raw-request.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const CBOR = 'application/cbor';
const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = { k: 'v' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

describe('CBOR with its feature gate off (the default)', () => {
  const s = useServer();

  it('answers Accept: application/cbor with 406 listing what is served, or with JSON when listed too', async () => {
    const r = await rawRequest(s, 'GET', CM, { accept: CBOR });
    assert.equal(r.status, 406);
    const status = JSON.parse(r.body.toString());
    assert.equal(status.reason, 'NotAcceptable');
    assert.doesNotMatch(status.message, /cbor/);
    const fallback = await rawRequest(s, 'GET', CM, { accept: `${CBOR}, application/json` });
    assert.equal(fallback.status, 200);
    assert.equal(fallback.type, 'application/json');
  });

  it('refuses CBOR bodies and CBOR apply patches with 415', async () => {
    const r = await rawRequest(s, 'POST', CM, { 'content-type': CBOR }, encodeCbor(cm('a')));
    assert.equal(r.status, 415);
    assert.equal(JSON.parse(r.body.toString()).reason, 'UnsupportedMediaType');
    const apply = await rawRequest(
      s,
      'PATCH',
      `${CM}/a?fieldManager=m`,
      { 'content-type': 'application/apply-patch+cbor' },
      encodeCbor(cm('a')),
    );
    assert.equal(apply.status, 415);
    assert.doesNotMatch(JSON.parse(apply.body.toString()).message, /cbor/);
  });
});

describe('CBOR with --feature-gates=CBORServingAndStorage=true', () => {
  const s = useServer({ args: ['--feature-gates=CBORServingAndStorage=true'] });

  it('creates from a CBOR body and answers in self-described CBOR', async () => {
    const r = await rawRequest(s, 'POST', CM, { 'content-type': CBOR, accept: CBOR }, encodeCbor(cm('one')));
    assert.equal(r.status, 201, r.body.toString());
    assert.equal(r.type, CBOR);
    assert.ok(hasSelfDescribedPrefix(r.body));
    const created = decodeCbor(r.body) as any;
    assert.equal(created.metadata.name, 'one');
    assert.deepEqual(created.data, { k: 'v' });
    const json = await s.request('GET', `${CM}/one`);
    assert.equal(json.json.metadata.uid, created.metadata.uid);
  });

  it("keeps a Secret's bytes through CBOR both ways", async () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bin' },
      data: { raw: Buffer.from([0, 255, 1, 254]).toString('base64') },
    };
    const path = '/api/v1/namespaces/default/secrets';
    const r = await rawRequest(
      s,
      'POST',
      path,
      { 'content-type': CBOR, accept: CBOR },
      encodeCbor(secret, secretDefinition.schema),
    );
    assert.equal(r.status, 201, r.body.toString());
    const back = decodeCbor(r.body, secretDefinition.schema) as any;
    assert.deepEqual(back.data, secret.data);
    assert.deepEqual((await s.request('GET', `${path}/bin`)).json.data, secret.data);
  });

  it('lists in CBOR and answers errors as CBOR Status', async () => {
    const list = await rawRequest(s, 'GET', CM, { accept: CBOR });
    assert.equal(list.type, CBOR);
    const decoded = decodeCbor(list.body) as any;
    assert.equal(decoded.kind, 'ConfigMapList');
    assert.ok(decoded.items.some((i: any) => i.metadata.name === 'one'));
    const missing = await rawRequest(s, 'GET', `${CM}/nope`, { accept: CBOR });
    assert.equal(missing.status, 404);
    assert.equal(missing.type, CBOR);
    const status = decodeCbor(missing.body) as any;
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'NotFound');
  });

  it('refuses a malformed CBOR body with 400', async () => {
    const r = await rawRequest(
      s,
      'POST',
      CM,
      { 'content-type': CBOR },
      Buffer.from([0xd9, 0xd9, 0xf7, 0xa1]),
    );
    assert.equal(r.status, 400);
    assert.equal(JSON.parse(r.body.toString()).reason, 'BadRequest');
  });

  it('lists application/cbor among the types of a 406', async () => {
    const r = await rawRequest(s, 'GET', CM, { accept: 'text/html' });
    assert.equal(r.status, 406);
    assert.match(JSON.parse(r.body.toString()).message, /application\/cbor/);
  });

  it('streams a watch as a CBOR sequence, read back event by event', async () => {
    const rv = (await s.request('GET', CM)).json.metadata.resourceVersion;
    const w = await openWatch(s, `${CM}?watch=1&resourceVersion=${rv}`, { cbor: true });
    try {
      assert.equal(w.status, 200);
      assert.equal(w.contentType, 'application/cbor-seq');
      await s.request('POST', CM, { body: cm('w1') });
      await s.request('PUT', `${CM}/w1`, { body: { ...cm('w1', { k: 'changed' }) } });
      await s.request('DELETE', `${CM}/w1`);
      const events = [await w.next(), await w.next(), await w.next()];
      assert.deepEqual(
        events.map((e) => [e.type, e.object.metadata.name]),
        [
          ['ADDED', 'w1'],
          ['MODIFIED', 'w1'],
          ['DELETED', 'w1'],
        ],
      );
      assert.equal(events[1].object.data.k, 'changed');
      for (const e of events) assert.ok(hasSelfDescribedPrefix(e.body!));
      assert.equal(w.pending(), 0);
    } finally {
      w.close();
    }
  });

  it('applies a CBOR apply configuration, and takes CBOR DeleteOptions', async () => {
    const applied = await rawRequest(
      s,
      'PATCH',
      `${CM}/applied?fieldManager=cbor-client`,
      { 'content-type': 'application/apply-patch+cbor' },
      encodeCbor(cm('applied', { from: 'cbor' })),
    );
    assert.equal(applied.status, 201, applied.body.toString());
    const got = (await s.request('GET', `${CM}/applied`)).json;
    assert.deepEqual(got.data, { from: 'cbor' });
    assert.equal(got.metadata.managedFields[0].manager, 'cbor-client');
    assert.equal(got.metadata.managedFields[0].operation, 'Apply');
    const wrongUid = await rawRequest(
      s,
      'DELETE',
      `${CM}/applied`,
      { 'content-type': CBOR },
      encodeCbor({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } }),
    );
    assert.equal(wrongUid.status, 409, wrongUid.body.toString());
    const deleted = await rawRequest(
      s,
      'DELETE',
      `${CM}/applied`,
      { 'content-type': CBOR },
      encodeCbor({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: got.metadata.uid } }),
    );
    assert.equal(deleted.status, 200, deleted.body.toString());
  });
});
