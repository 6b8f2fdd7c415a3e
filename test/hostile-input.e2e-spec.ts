/**
 * Input meant to break the server (issue 14, "Hard edges"): strings PostgreSQL cannot hold, YAML that is not
 * data, bodies nested past any stack, malformed HTTP, and query parameters and patches kube refuses (or
 * accepts). Every answer is a Status with kube's code and reason, and none carries another component's text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawHttp1, rawRequest } from './support/raw-request.js';
import type { Response } from './support/server.js';
import { useServer } from './support/use-server.js';

/** Words of PostgreSQL, V8, Node's HTTP parser and Fastify that must never reach a client. */
const leaks = [
  'invalid input syntax',
  'unsupported Unicode escape',
  'invalid byte sequence',
  'Maximum call stack',
  'Cannot delete property',
  'Uint8Array',
  'Client Error',
  'is not a valid url component',
  'Cannot OPTIONS',
  'Internal error',
  'at line',
];

function assertStatus(status: number, body: any, code: number, reason: string | undefined): void {
  assert.equal(status, code, JSON.stringify(body));
  assert.equal(body?.kind, 'Status', JSON.stringify(body));
  assert.equal(body.apiVersion, 'v1');
  assert.equal(body.status, 'Failure');
  assert.equal(body.code, code);
  assert.equal(body.reason, reason);
  for (const leak of leaks)
    assert.ok(!String(body.message).includes(leak), `leaks "${leak}": ${body.message}`);
}

const expectStatus = (r: Response, code: number, reason: string | undefined) =>
  assertStatus(r.status, r.json, code, reason);

const cms = '/api/v1/namespaces/default/configmaps';

describe('hostile input', () => {
  const s = useServer();
  const postJson = (text: string, query = '') =>
    s.request('POST', `${cms}${query}`, { raw: text, headers: { 'content-type': 'application/json' } });
  const postYaml = (text: string) =>
    s.request('POST', cms, { raw: text, headers: { 'content-type': 'application/yaml' } });
  const cm = async (name: string, data: Record<string, string> = { a: '1' }) => {
    const r = await s.request('POST', cms, { body: { metadata: { name }, data } });
    assert.equal(r.status, 201, r.text);
    return r.json;
  };

  describe('strings the database cannot hold', () => {
    it('refuses \\u0000 in a JSON value, a key or metadata with 400 before storage', async () => {
      for (const body of [
        '{"metadata":{"name":"nul1"},"data":{"x":"a\\u0000b"}}',
        '{"metadata":{"name":"nul1"},"data":{"a\\u0000":"x"}}',
        '{"metadata":{"name":"nul1","annotations":{"note":"\\u0000"}}}',
      ]) {
        const r = await postJson(body);
        expectStatus(r, 400, 'BadRequest');
        assert.match(r.json.message, /NUL character/);
      }
      expectStatus(await s.request('GET', `${cms}/nul1`), 404, 'NotFound');
    });

    it('names the field holding the NUL', async () => {
      const r = await postJson('{"metadata":{"name":"nul2"},"data":{"x":"\\u0000"}}');
      assert.equal(r.json.message, 'data.x: Invalid value: may not contain the NUL character (\\u0000)');
    });

    it('reads a lone surrogate as U+FFFD, as Go does', async () => {
      const r = await postJson(
        '{"metadata":{"name":"surrogate","annotations":{"n":"\\udc00"}},"data":{"x":"a\\ud800b"}}',
      );
      assert.equal(r.status, 201, r.text);
      const got = await s.request('GET', `${cms}/surrogate`);
      assert.deepEqual(got.json.data, { x: 'a\ufffdb' });
      assert.equal(got.json.metadata.annotations.n, '\ufffd');
    });

    it('refuses a NUL written as a YAML escape', async () => {
      const r = await postYaml('metadata:\n  name: nul3\ndata:\n  x: "a\\0b"\n');
      expectStatus(r, 400, 'BadRequest');
      assert.match(r.json.message, /^data\.x: .*NUL character/);
    });

    it('refuses a NUL brought in by a JSON patch, a merge patch or an apply', async () => {
      await cm('patched-nul');
      const patch = (type: string, body: string, query = '') =>
        s.request('PATCH', `${cms}/patched-nul${query}`, { raw: body, headers: { 'content-type': type } });
      for (const r of [
        await patch('application/json-patch+json', '[{"op":"add","path":"/data/b","value":"\\u0000"}]'),
        await patch('application/merge-patch+json', '{"data":{"b":"\\u0000"}}'),
        await patch('application/strategic-merge-patch+json', '{"data":{"b\\u0000":"x"}}'),
        await patch(
          'application/apply-patch+yaml',
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched-nul\ndata:\n  b: "\\0"\n',
          '?fieldManager=m',
        ),
      ])
        expectStatus(r, 400, 'BadRequest');
      const got = await s.request('GET', `${cms}/patched-nul`);
      assert.deepEqual(got.json.data, { a: '1' });
    });

    it('refuses %00 in a name or namespace of the URL with 400', async () => {
      for (const [method, path] of [
        ['GET', `${cms}/a%00b`],
        ['DELETE', `${cms}/a%00b`],
        ['GET', '/api/v1/namespaces/de%00f/configmaps'],
        ['GET', '/api/v1/namespaces/de%00f'],
      ]) {
        const r = await s.request(method, path);
        expectStatus(r, 400, 'BadRequest');
        assert.match(r.json.message, /^(Name|Namespace) parameter invalid: ".*\\x00.*": may not contain/);
      }
      const r = await s.request('POST', '/api/v1/namespaces/de%00f/configmaps', {
        body: { metadata: { name: 'x' } },
      });
      expectStatus(r, 400, 'BadRequest');
    });

    it('answers an undecodable URL escape with a Status of its own words', async () => {
      const r = await s.request('GET', `${cms}/%ED%A0%80`);
      expectStatus(r, 400, 'BadRequest');
      assert.equal(r.json.message, 'invalid URL escape in the request path');
    });
  });

  describe('YAML that is not data', () => {
    it('refuses !!binary that is not base64 (yaml.v2: invalid base64 data)', async () => {
      for (const body of ['!!binary xyz\n', 'metadata:\n  name: bin\ndata:\n  x: !!binary xyz\n']) {
        const r = await postYaml(body);
        expectStatus(r, 400, 'BadRequest');
        assert.match(r.json.message, /^yaml: line \d+: !!binary value contains invalid base64 data$/);
      }
    });

    it('reads valid !!binary as the string of its bytes', async () => {
      const r = await postYaml('metadata:\n  name: bin-ok\ndata:\n  x: !!binary eHl6\n');
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json.data, { x: 'xyz' });
    });

    it('refuses a 20000-deep YAML document with 400, and keeps serving', async () => {
      for (const body of [
        `a: ${'['.repeat(20000)}`,
        `${'- '.repeat(20000)}x\n`,
        // block nesting needs a column per level: 1500 levels fit the body limit
        Array.from({ length: 1500 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'),
      ]) {
        const r = await postYaml(body);
        expectStatus(r, 400, 'BadRequest');
        assert.equal(r.json.message, 'yaml: exceeded max depth');
      }
      const r = await s.request('GET', '/api');
      assert.equal(r.status, 200);
    });

    it('still reads YAML nested a few hundred levels', async () => {
      const r = await postYaml(
        `metadata:\n  name: nested\ndata:\n  a: ${'['.repeat(300)}${']'.repeat(300)}\n`,
      );
      // read as YAML, then refused by the schema: data values are strings
      expectStatus(r, 400, 'BadRequest');
      assert.match(
        r.json.message,
        /cannot unmarshal array into Go struct field ConfigMap\.data of type string/,
      );
    });

    it('refuses JSON nested too deep for its string check with 400', async () => {
      const deep = `${'['.repeat(20000)}"\\u00e9"${']'.repeat(20000)}`;
      const r = await postJson(`{"metadata":{"name":"deep-json"},"extra":${deep}}`);
      expectStatus(r, 400, 'BadRequest');
      assert.equal(r.json.message, 'json: exceeded max depth');
      // a free-form field (managedFields[].fieldsV1) keeps what it is sent: only as deep as it can be stored
      const fields = `${'{"a":'.repeat(20000)}{}${'}'.repeat(20000)}`;
      const mf = await postJson(
        `{"metadata":{"name":"deep-fields","managedFields":[{"manager":"m","fieldsV1":${fields}}]}}`,
      );
      expectStatus(mf, 400, 'BadRequest');
      assert.match(mf.json.message, /json: exceeded max depth$/);
    });
  });

  describe('every answer is a Status', () => {
    it('malformed HTTP/1.1 is a 400 Status', async () => {
      const r = await rawHttp1(s, 'GET /api HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n');
      assert.equal(r.headers['content-type'], 'application/json');
      assertStatus(r.status, JSON.parse(r.body), 400, 'BadRequest');
    });

    it('a garbage request line is a 400 Status', async () => {
      const r = await rawHttp1(s, 'HELLO\r\n\r\n');
      assertStatus(r.status, JSON.parse(r.body), 400, 'BadRequest');
    });

    it('headers or a URL over 16 KiB are a 431 Status', async () => {
      const big = 'a'.repeat(17 * 1024);
      for (const r of [
        await rawRequest(s, 'GET', '/api', { 'x-big': big }),
        await rawRequest(s, 'GET', `/api?x=${big}`),
      ]) {
        assert.equal(r.type, 'application/json');
        const body = JSON.parse(r.body.toString());
        // kube has no reason for 431 (StatusReasonUnknown: none written)
        assertStatus(r.status, body, 431, undefined);
      }
    });

    it('OPTIONS is a 405 MethodNotAllowed Status', async () => {
      for (const path of [cms, `${cms}/x`, '/api/v1/namespaces', '/api', '/healthz']) {
        const r = await s.request('OPTIONS', path);
        expectStatus(r, 405, 'MethodNotAllowed');
      }
    });
  });

  describe('query parameters as kube reads them', () => {
    it('dryRun: every value must be All (422 Invalid on the verb’s options)', async () => {
      const r = await postJson('{"metadata":{"name":"dry"}}', '?dryRun=All&dryRun=Bogus');
      expectStatus(r, 422, 'Invalid');
      assert.equal(
        r.json.message,
        'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"All", "Bogus"}: supported values: "All"',
      );
      assert.deepEqual(r.json.details, {
        group: 'meta.k8s.io',
        kind: 'CreateOptions',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: []string{"All", "Bogus"}: supported values: "All"',
            field: 'dryRun',
          },
        ],
      });
      expectStatus(await s.request('GET', `${cms}/dry`), 404, 'NotFound');
    });

    it('dryRun=All twice is a dry run; a bad one names the options of each verb', async () => {
      const r = await postJson('{"metadata":{"name":"dry2"}}', '?dryRun=All&dryRun=All');
      assert.equal(r.status, 201, r.text);
      expectStatus(await s.request('GET', `${cms}/dry2`), 404, 'NotFound');
      await cm('dry3');
      const put = await s.request('PUT', `${cms}/dry3?dryRun=Bogus`, {
        body: { metadata: { name: 'dry3' }, data: { a: '2' } },
      });
      expectStatus(put, 422, 'Invalid');
      assert.equal(put.json.details.kind, 'UpdateOptions');
      const patch = await s.request('PATCH', `${cms}/dry3?dryRun=`, {
        raw: '{}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expectStatus(patch, 422, 'Invalid');
      assert.equal(patch.json.details.kind, 'PatchOptions');
      const del = await s.request('DELETE', `${cms}/dry3?dryRun=All&dryRun=x`);
      expectStatus(del, 422, 'Invalid');
      assert.equal(del.json.details.kind, 'DeleteOptions');
      assert.equal((await s.request('GET', `${cms}/dry3`)).status, 200);
    });

    it('patch options: force only with apply, fieldManager required for apply (422 PatchOptions)', async () => {
      await cm('opts');
      const merge = await s.request('PATCH', `${cms}/opts?force=true`, {
        raw: '{}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expectStatus(merge, 422, 'Invalid');
      assert.equal(
        merge.json.message,
        'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
      );
      const apply = await s.request('PATCH', `${cms}/opts`, {
        raw: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"opts"}}',
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
      expectStatus(apply, 422, 'Invalid');
      assert.equal(
        apply.json.message,
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      );
    });

    it('options are checked before the body is read', async () => {
      const r = await postJson('{not json', '?dryRun=x&fieldValidation=Loud');
      expectStatus(r, 422, 'Invalid');
      assert.deepEqual(
        r.json.details.causes.map((c: any) => c.field),
        ['dryRun', 'fieldValidation'],
      );
    });

    it('fieldManager must be printable (422)', async () => {
      const r = await postJson('{"metadata":{"name":"fm"}}', '?fieldManager=a%01b');
      expectStatus(r, 422, 'Invalid');
      assert.equal(r.json.details.causes[0].field, 'fieldManager');
    });

    it('a boolean parameter is true unless absent, 0 or false (watch=maybe is a watch)', async () => {
      await cm('watched');
      const watch = await s.request('GET', `${cms}?watch=maybe&resourceVersion=0&timeoutSeconds=1`);
      assert.equal(watch.status, 200);
      const first = JSON.parse(watch.text.split('\n')[0]);
      assert.equal(first.type, 'ADDED');
      for (const flag of ['FALSE', 'false', '0']) {
        const list = await s.request('GET', `${cms}?watch=${flag}`);
        assert.equal(list.json.kind, 'ConfigMapList');
      }
    });

    it('labelSelector `a in ()` is the set {""}', async () => {
      await s.request('POST', cms, { body: { metadata: { name: 'empty-label', labels: { a: '' } } } });
      await s.request('POST', cms, { body: { metadata: { name: 'other-label', labels: { a: 'x' } } } });
      const r = await s.request('GET', `${cms}?labelSelector=${encodeURIComponent('a in ()')}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.json.items.map((i: any) => i.metadata.name),
        ['empty-label'],
      );
    });
  });

  describe('patches as kube checks them', () => {
    it('a stale metadata.resourceVersion in a merge patch or an apply is a 409 precondition', async () => {
      const created = await cm('stale');
      const rv = created.metadata.resourceVersion;
      const bump = await s.request('PUT', `${cms}/stale`, {
        body: { metadata: { name: 'stale' }, data: { a: '2' } },
      });
      assert.equal(bump.status, 200);
      const merge = await s.request('PATCH', `${cms}/stale`, {
        raw: JSON.stringify({ metadata: { resourceVersion: rv }, data: { b: '1' } }),
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expectStatus(merge, 409, 'Conflict');
      const applied = (resourceVersion: string) =>
        s.request('PATCH', `${cms}/stale?fieldManager=m`, {
          raw: JSON.stringify({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'stale', resourceVersion },
            data: { c: '1' },
          }),
          headers: { 'content-type': 'application/apply-patch+yaml' },
        });
      const apply = await applied(rv);
      expectStatus(apply, 409, 'Conflict');
      assert.match(apply.json.message, /the object has been modified/);
      const current = await applied(bump.json.metadata.resourceVersion);
      assert.equal(current.status, 200, current.text);
      assert.equal(current.json.data.c, '1');
    });

    it('a JSON patch changing /kind or /apiVersion is a 422', async () => {
      await cm('retyped');
      for (const op of [
        { op: 'replace', path: '/kind', value: 'Secret' },
        { op: 'replace', path: '/apiVersion', value: 'v2' },
      ]) {
        const r = await s.request('PATCH', `${cms}/retyped`, {
          raw: JSON.stringify([op]),
          headers: { 'content-type': 'application/json-patch+json' },
        });
        expectStatus(r, 422, 'Invalid');
        assert.equal(r.json.details.causes[0].field, op.path.slice(1));
      }
      const r = await s.request('GET', `${cms}/retyped`);
      assert.equal(r.json.kind, 'ConfigMap');
    });

    it('a failed JSON patch test names the operation', async () => {
      await cm('tested');
      const r = await s.request('PATCH', `${cms}/tested`, {
        raw: JSON.stringify([
          { op: 'add', path: '/data/b', value: '2' },
          { op: 'test', path: '/data/a', value: 'nope' },
        ]),
        headers: { 'content-type': 'application/json-patch+json' },
      });
      expectStatus(r, 422, 'Invalid');
      assert.deepEqual(r.json.details.causes, [
        {
          reason: 'FieldValueInvalid',
          field: '[1]',
          message: 'test: testing value /data/a failed: test failed',
        },
      ]);
    });
  });
});
