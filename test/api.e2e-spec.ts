/** The resource API over HTTPS against the real server and real PostgreSQL: verbs, errors, lifecycle. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from './support/use-server.js';

const cm = (
  name: string,
  data: Record<string, string> = { a: '1' },
  extra: Record<string, unknown> = {},
) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data,
});

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail('condition not met in time');
}

describe('resource API', () => {
  const s = useServer();

  it('has the built-in namespaces', async () => {
    const r = await s.request('GET', '/api/v1/namespaces');
    assert.equal(r.status, 200);
    assert.equal(r.json.kind, 'NamespaceList');
    const names = r.json.items.map((n: any) => n.metadata.name).sort();
    assert.deepEqual(names, ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    assert.equal(r.json.items[0].status.phase, 'Active');
  });

  it('creates (201) with uid, creationTimestamp, resourceVersion; duplicate create is 409 AlreadyExists', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('dup') });
    assert.equal(r.status, 201);
    assert.match(r.json.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.match(r.json.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(r.json.metadata.resourceVersion, /^\d+$/);
    const again = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('dup') });
    assert.equal(again.status, 409);
    assert.equal(again.json.kind, 'Status');
    assert.equal(again.json.reason, 'AlreadyExists');
    assert.equal(again.json.message, 'configmaps "dup" already exists');
  });

  it('generateName makes a unique name', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } };
    const a = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body });
    const b = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body });
    assert.equal(a.status, 201);
    assert.match(a.json.metadata.name, /^gen-[a-z0-9]{5}$/);
    assert.notEqual(a.json.metadata.name, b.json.metadata.name);
  });

  it('PUT with a stale resourceVersion is 409 Conflict; a current one updates', async () => {
    const created = (await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('stale') }))
      .json;
    const path = '/api/v1/namespaces/default/configmaps/stale';
    const ok = await s.request('PUT', path, { body: { ...created, data: { a: '2' } } });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.data.a, '2');
    assert.notEqual(ok.json.metadata.resourceVersion, created.metadata.resourceVersion);
    const stale = await s.request('PUT', path, { body: { ...created, data: { a: '3' } } });
    assert.equal(stale.status, 409);
    assert.equal(stale.json.reason, 'Conflict');
    assert.match(stale.json.message, /the object has been modified/);
    assert.equal((await s.request('GET', path)).json.data.a, '2');
  });

  it('PUT on a missing ConfigMap is 404 (no create-on-update)', async () => {
    const r = await s.request('PUT', '/api/v1/namespaces/default/configmaps/nope', { body: cm('nope') });
    assert.equal(r.status, 404);
    assert.equal(r.json.reason, 'NotFound');
  });

  it('422 Invalid with causes for bad names and keys', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('Bad_Name', { 'bad key!': 'x' }),
    });
    assert.equal(r.status, 422);
    assert.equal(r.json.reason, 'Invalid');
    const fields = r.json.details.causes.map((c: any) => c.field).sort();
    assert.deepEqual(fields, ['data[bad key!]', 'metadata.name']);
    assert.match(r.json.message, /^ConfigMap "Bad_Name" is invalid: /);
    assert.ok(r.json.details.causes.every((c: any) => c.reason === 'FieldValueInvalid'));
  });

  it('400 on malformed JSON and YAML; 415 on an unknown content type; 413 over 3 MiB', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    const json = await s.request('POST', base, {
      raw: '{"metadata": {',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(json.status, 400);
    assert.equal(json.json.reason, 'BadRequest');
    const yaml = await s.request('POST', base, {
      raw: 'metadata: [oops',
      headers: { 'content-type': 'application/yaml' },
    });
    assert.equal(yaml.status, 400);
    assert.equal(yaml.json.kind, 'Status');
    const notObject = await s.request('POST', base, {
      raw: '[1,2]',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(notObject.status, 400);
    const media = await s.request('POST', base, { raw: 'x', headers: { 'content-type': 'text/plain' } });
    assert.equal(media.status, 415);
    assert.equal(media.json.reason, 'UnsupportedMediaType');
    const huge = await s.request('POST', base, { body: cm('huge', { a: 'x'.repeat(3 * 1024 * 1024 + 10) }) });
    assert.equal(huge.status, 413);
    assert.equal(huge.json.reason, 'RequestEntityTooLarge');
  });

  it('accepts YAML bodies and answers YAML', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      raw: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n',
      headers: { 'content-type': 'application/yaml', accept: 'application/yaml' },
    });
    assert.equal(r.status, 201);
    assert.match(String(r.headers['content-type']), /^application\/yaml/);
    assert.match(r.text, /^apiVersion: v1\ndata:\n {2}k: v\nkind: ConfigMap\n/);
  });

  it('404 Status for unknown resources, groups and objects; 401 for a bad token', async () => {
    for (const p of [
      '/api/v1/widgets',
      '/apis/example.com/v1/things',
      '/api/v1/namespaces/default/configmaps/missing',
    ]) {
      const r = await s.request('GET', p);
      assert.equal(r.status, 404, p);
      assert.equal(r.json.kind, 'Status');
      assert.equal(r.json.reason, 'NotFound');
    }
    const bad = await s.request('GET', '/api/v1/namespaces', { token: 'wrong' });
    assert.equal(bad.status, 401);
    assert.equal(bad.json.reason, 'Unauthorized');
    assert.equal((await s.request('GET', '/version', { token: null })).status, 200);
  });

  it('400 Status for a URL that does not decode', async () => {
    for (const p of ['/api/v1/namespaces/%zz/configmaps', '/apis/%E0%A4%A']) {
      const r = await s.request('GET', p);
      assert.equal(r.status, 400, p);
      assert.equal(r.json.kind, 'Status');
      assert.equal(r.json.reason, 'BadRequest');
      // our words, not Fastify's ("... is not a valid url component")
      assert.equal(r.json.message, 'invalid URL escape in the request path');
    }
  });

  it('405 for a verb the resource does not support', async () => {
    const r = await s.request('DELETE', '/api/v1/namespaces');
    assert.equal(r.status, 405);
    assert.equal(r.json.reason, 'MethodNotAllowed');
  });

  it('creating in a missing namespace is 404', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/nowhere/configmaps', { body: cm('x') });
    assert.equal(r.status, 404);
    assert.equal(r.json.message, 'namespaces "nowhere" not found');
  });

  it('finalizers hold an object in Terminating until a PUT removes them', async () => {
    const path = '/api/v1/namespaces/default/configmaps/held';
    await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('held', { a: '1' }, { finalizers: ['example.com/hold'] }),
    });
    const del = await s.request('DELETE', path);
    assert.equal(del.status, 200);
    assert.ok(del.json.metadata.deletionTimestamp, 'deletionTimestamp set');
    const still = await s.request('GET', path);
    assert.equal(still.status, 200);
    assert.deepEqual(still.json.metadata.finalizers, ['example.com/hold']);
    const cleared = await s.request('PUT', path, {
      body: { ...still.json, metadata: { ...still.json.metadata, finalizers: [] } },
    });
    assert.equal(cleared.status, 200);
    assert.equal((await s.request('GET', path)).status, 404);
  });

  it('delete preconditions on uid and resourceVersion', async () => {
    const created = (await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('pre') }))
      .json;
    const path = '/api/v1/namespaces/default/configmaps/pre';
    const wrongUid = await s.request('DELETE', path, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'nope' } },
    });
    assert.equal(wrongUid.status, 409);
    assert.equal(
      wrongUid.json.message,
      `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (nope) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
    );
    assert.equal(wrongUid.json.details.kind, 'ConfigMap');
    const ok = await s.request('DELETE', path, {
      body: {
        preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion },
      },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.kind, 'Status');
    assert.equal(ok.json.status, 'Success');
  });

  it('deletecollection with a label selector deletes only the matching objects', async () => {
    await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dc' } },
    });
    for (const [name, tier] of [
      ['a', 'web'],
      ['b', 'web'],
      ['c', 'db'],
    ]) {
      await s.request('POST', '/api/v1/namespaces/dc/configmaps', {
        body: cm(name, {}, { labels: { tier } }),
      });
    }
    const r = await s.request('DELETE', '/api/v1/namespaces/dc/configmaps?labelSelector=tier%3Dweb');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.items.map((i: any) => i.metadata.name).sort(), ['a', 'b']);
    const left = await s.request('GET', '/api/v1/namespaces/dc/configmaps');
    // every namespace also gets kube-root-ca.crt (the root-ca-cert-publisher's)
    assert.deepEqual(
      left.json.items.map((i: any) => i.metadata.name).filter((n: string) => n !== 'kube-root-ca.crt'),
      ['c'],
    );
    const sel = await s.request('GET', '/api/v1/namespaces/dc/configmaps?labelSelector=tier+in+(db,cache)');
    assert.equal(sel.json.items.length, 1);
    const badSel = await s.request('GET', '/api/v1/namespaces/dc/configmaps?labelSelector=tier+in+db');
    assert.equal(badSel.status, 400);
    const badField = await s.request('GET', '/api/v1/namespaces/dc/configmaps?fieldSelector=spec.nope%3D1');
    assert.equal(badField.status, 400);
    const byName = await s.request('GET', '/api/v1/configmaps?fieldSelector=metadata.name%3Dc');
    assert.deepEqual(
      byName.json.items.map((i: any) => i.metadata.namespace),
      ['dc'],
    );
  });

  it('deleting a namespace deletes its contents (honouring finalizers), then the namespace', async () => {
    await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } },
    });
    await s.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: cm('plain') });
    await s.request('POST', '/api/v1/namespaces/doomed/configmaps', {
      body: cm('held', {}, { finalizers: ['example.com/x'] }),
    });
    const del = await s.request('DELETE', '/api/v1/namespaces/doomed');
    assert.equal(del.status, 200);
    assert.equal(del.json.status.phase, 'Terminating');
    const refused = await s.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: cm('late') });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.details.causes[0].reason, 'NamespaceTerminating');
    await eventually(
      async () => (await s.request('GET', '/api/v1/namespaces/doomed/configmaps/plain')).status === 404,
    );
    const held = await s.request('GET', '/api/v1/namespaces/doomed/configmaps/held');
    assert.equal(held.status, 200, 'a finalizer keeps its object');
    assert.equal(
      (await s.request('GET', '/api/v1/namespaces/doomed')).status,
      200,
      'the namespace waits for it',
    );
    await s.request('PUT', '/api/v1/namespaces/doomed/configmaps/held', {
      body: { ...held.json, metadata: { ...held.json.metadata, finalizers: [] } },
    });
    await eventually(async () => (await s.request('GET', '/api/v1/namespaces/doomed')).status === 404);
  });

  it('dryRun=All runs everything and persists nothing', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', {
      body: cm('dry'),
    });
    assert.equal(r.status, 201);
    assert.equal(r.json.metadata.name, 'dry');
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
    const invalid = await s.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', {
      body: cm('Dry!'),
    });
    assert.equal(invalid.status, 422);
  });

  it('Secrets: type is immutable, immutable data stays', async () => {
    const base = '/api/v1/namespaces/default/secrets';
    const created = await s.request('POST', base, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's1' },
        data: { k: 'dmFsdWU=' },
        immutable: true,
      },
    });
    assert.equal(created.status, 201);
    assert.equal(created.json.type, 'Opaque');
    const retype = await s.request('PUT', `${base}/s1`, {
      body: { ...created.json, type: 'kubernetes.io/tls' },
    });
    assert.equal(retype.status, 422);
    const redata = await s.request('PUT', `${base}/s1`, {
      body: { ...created.json, data: { k: 'b3RoZXI=' } },
    });
    assert.equal(redata.status, 422);
  });
});
