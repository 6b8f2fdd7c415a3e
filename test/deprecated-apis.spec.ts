/**
 * The record of deprecated APIs requested (what apiserver_requested_deprecated_apis will expose), read from
 * the application itself: the real server modules on real PostgreSQL, requests injected into its HTTP stack.
 * The deprecated version is the test-only Widget's v1beta1 (support/test-apis.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { Registry } from '../modules/registry/index.js';
import { DeprecatedApis } from '../modules/versioning/index.js';
import { testDatabase, type TestDatabase } from './support/database.js';
import { inProcessApp } from './support/in-process-server.js';
import { widgetDefinition } from './support/test-apis.js';

const BETA = '/apis/testing.pgkube.io/v1beta1/namespaces/default/widgets';
const TOKEN = 'record-test-token';

describe('deprecated APIs requested', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let http: FastifyInstance;

  before(async () => {
    db = await testDatabase();
    ({ app, http } = await inProcessApp(db.url, {
      tokens: new Map([[TOKEN, { name: 'admin', uid: 'admin', groups: ['system:masters'] }]]),
      // the test kind joins as a CRD's would, through the registry
      beforeInit: (a) => a.get(Registry).register(widgetDefinition),
    }));
  });

  after(async () => {
    await app?.close();
    await db?.drop();
  });

  const request = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    http.inject({
      method,
      url,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      payload: body ? JSON.stringify(body) : undefined,
    });

  it('holds each deprecated group, version, resource and subresource requested, failed requests too', async () => {
    const record = app.get(DeprecatedApis);
    assert.deepEqual(record.requested(), []);
    assert.equal(
      (await request('GET', '/apis/testing.pgkube.io/v1/namespaces/default/widgets')).statusCode,
      200,
    );
    assert.equal((await request('GET', '/api/v1/namespaces')).statusCode, 200);
    assert.deepEqual(record.requested(), [], 'stable versions are not deprecated');

    const widgets = {
      group: 'testing.pgkube.io',
      version: 'v1beta1',
      resource: 'widgets',
      subresource: '',
      removed_release: '1.35',
    };
    assert.equal((await request('GET', `${BETA}/nope`)).statusCode, 404);
    assert.deepEqual(record.requested(), [widgets], 'a 404 counts, as in kube');

    const created = await request('POST', BETA, {
      apiVersion: 'testing.pgkube.io/v1beta1',
      kind: 'Widget',
      metadata: { name: 'w' },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal((await request('GET', BETA)).statusCode, 200);
    assert.deepEqual(record.requested(), [widgets], 'one entry per label set');

    assert.equal((await request('GET', `${BETA}/w/status`)).statusCode, 200);
    assert.deepEqual(record.requested(), [widgets, { ...widgets, subresource: 'status' }]);
  });
});
