/**
 * The request pipeline of the real application (every Nest module, real PostgreSQL), requests injected into
 * its HTTP stack: authentication (token file users, anonymous, unknown tokens), impersonation, authorization,
 * then the routes; admission's namespace rules as a client sees them; the deprecated-version Warning.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { inProcessApp } from '../../test/support/in-process-server.js';
import { widgetDefinition } from '../../test/support/test-apis.js';
import { parseTokenFile } from '../authentication/index.js';
import { Registry } from '../registry/index.js';

const ADMIN = 'admin-token';
const BOB = 'bob-token';
const TOKEN_FILE = [
  '# token,user,uid,"groups"',
  `${ADMIN},admin,uid-admin,"system:masters"`,
  `${BOB},bob,uid-bob,"dev,qa"`,
  '',
].join('\n');

const NAMESPACES = '/api/v1/namespaces';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const BETA_WIDGETS = '/apis/testing.pgkube.io/v1beta1/namespaces/default/widgets';
const BETA_WARNING =
  '299 - "testing.pgkube.io/v1beta1 Widget is deprecated in v1.30+, unavailable in v1.35+; use testing.pgkube.io/v1 Widget"';

interface Call {
  token?: string;
  headers?: Record<string, string | string[]>;
  body?: unknown;
}

function json(r: LightMyRequestResponse): any {
  return JSON.parse(r.body);
}

/** The Warning header's values (none: []) */
function warnings(r: LightMyRequestResponse): string[] {
  const w = r.headers.warning;
  return w === undefined ? [] : ([] as string[]).concat(w as string | string[]);
}

/** The response is a kube Status of this code and reason; returns it. */
function status(r: LightMyRequestResponse, code: number, reason: string): any {
  assert.equal(r.statusCode, code, r.body);
  const s = json(r);
  assert.equal(s.kind, 'Status', r.body);
  assert.equal(s.apiVersion, 'v1');
  assert.equal(s.status, 'Failure');
  assert.equal(s.code, code);
  assert.equal(s.reason, reason);
  return s;
}

describe('request pipeline', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let http: FastifyInstance;

  before(async () => {
    db = await testDatabase();
    // the tokens as --token-auth-file would give them
    ({ app, http } = await inProcessApp(db.url, {
      tokens: parseTokenFile(TOKEN_FILE, 'tokens.csv'),
      beforeInit: (a) => a.get(Registry).register(widgetDefinition),
    }));
    // RBAC (the default mode) lets every authenticated user do everything here, as bob needs
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    const all = [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ];
    const granted = [
      await request('POST', `${rbac}/clusterroles`, {
        token: ADMIN,
        body: { metadata: { name: 'all' }, rules: all },
      }),
      await request('POST', `${rbac}/clusterrolebindings`, {
        token: ADMIN,
        body: {
          metadata: { name: 'all' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'all' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }],
        },
      }),
    ];
    for (const r of granted) assert.equal(r.statusCode, 201, r.body);
    // answered from the watch cache once it holds the binding, which the authorizer reads
    const rv = json(granted[1]).metadata.resourceVersion;
    const seen = await request(
      'GET',
      `${rbac}/clusterrolebindings?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`,
      { token: ADMIN },
    );
    assert.equal(seen.statusCode, 200, seen.body);
  });

  after(async () => {
    await app?.close();
    await db?.drop();
  });

  const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, call: Call = {}) =>
    http.inject({
      method,
      url,
      headers: {
        ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
        ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...call.headers,
      },
      payload: call.body !== undefined ? JSON.stringify(call.body) : undefined,
    });

  describe('authentication', () => {
    it('without credentials, anonymous may read /healthz and /version', async () => {
      const health = await request('GET', '/healthz');
      assert.equal(health.statusCode, 200, health.body);
      assert.equal(health.body, 'ok');
      const version = await request('GET', '/version');
      assert.equal(version.statusCode, 200, version.body);
      assert.match(json(version).gitVersion, /^v1\.32\./);
    });

    it('without credentials, listing namespaces is 403 as kube words it', async () => {
      const s = status(await request('GET', NAMESPACES), 403, 'Forbidden');
      assert.equal(
        s.message,
        'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      );
      assert.deepEqual(s.details, { kind: 'namespaces' });
    });

    it('anonymous is refused in a namespace and on other non-resource paths too', async () => {
      const s = status(await request('GET', CONFIGMAPS), 403, 'Forbidden');
      assert.equal(
        s.message,
        'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"',
      );
      const leases = status(
        await request('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/l1'),
        403,
        'Forbidden',
      );
      assert.equal(
        leases.message,
        'leases.coordination.k8s.io "l1" is forbidden: User "system:anonymous" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "default"',
      );
      assert.deepEqual(leases.details, { name: 'l1', group: 'coordination.k8s.io', kind: 'leases' });
      const api = status(await request('GET', '/api'), 403, 'Forbidden');
      assert.equal(api.message, 'forbidden: User "system:anonymous" cannot get path "/api"');
    });

    it('an unknown bearer token is 401, even though anonymous access is on', async () => {
      const s = status(await request('GET', NAMESPACES, { token: 'no-such-token' }), 401, 'Unauthorized');
      assert.equal(s.message, 'Unauthorized');
      // a known token that is one character off
      status(await request('GET', NAMESPACES, { token: `${BOB}x` }), 401, 'Unauthorized');
      // a public path does not make a bad credential good
      status(await request('GET', '/healthz', { token: 'no-such-token' }), 401, 'Unauthorized');
    });

    // kube's bearer-token authenticator: another scheme is no credential, so the request is anonymous
    it('an Authorization header that is not a bearer token is anonymous', async () => {
      const r = await request('GET', NAMESPACES, { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
      assert.match(status(r, 403, 'Forbidden').message, /User "system:anonymous" cannot list/);
    });

    it('a member of system:masters and a user RBAC allows are allowed', async () => {
      for (const token of [ADMIN, BOB]) {
        const list = await request('GET', NAMESPACES, { token });
        assert.equal(list.statusCode, 200, list.body);
        assert.ok(json(list).items.some((n: any) => n.metadata.name === 'default'));
      }
      const created = await request('POST', CONFIGMAPS, {
        token: BOB,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'by-bob' }, data: { a: 'b' } },
      });
      assert.equal(created.statusCode, 201, created.body);
    });
  });

  describe('impersonation', () => {
    it('impersonating system:anonymous is refused like an anonymous request', async () => {
      const s = status(
        await request('GET', NAMESPACES, {
          token: ADMIN,
          headers: { 'impersonate-user': 'system:anonymous' },
        }),
        403,
        'Forbidden',
      );
      assert.equal(
        s.message,
        'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      );
    });

    it('impersonating a user with groups: the groups are the impersonated ones', async () => {
      // system:anonymous alone is refused (above); with the impersonated group system:masters it is allowed
      const r = await request('GET', NAMESPACES, {
        token: ADMIN,
        headers: { 'impersonate-user': 'system:anonymous', 'impersonate-group': 'system:masters' },
      });
      assert.equal(r.statusCode, 200, r.body);
      // a named user with several groups, given as repeated headers
      const carol = await request('GET', CONFIGMAPS, {
        token: BOB,
        headers: { 'impersonate-user': 'carol', 'impersonate-group': ['dev', 'ops'] },
      });
      assert.equal(carol.statusCode, 200, carol.body);
    });

    it('the impersonated user is the one refused, not the one who asked', async () => {
      // admin could list namespaces itself; as system:anonymous it may not even read /api
      const s = status(
        await request('GET', '/api', { token: ADMIN, headers: { 'impersonate-user': 'system:anonymous' } }),
        403,
        'Forbidden',
      );
      assert.equal(s.message, 'forbidden: User "system:anonymous" cannot get path "/api"');
    });

    it('anonymous may not impersonate', async () => {
      const s = status(
        await request('GET', NAMESPACES, { headers: { 'impersonate-user': 'admin' } }),
        403,
        'Forbidden',
      );
      assert.equal(
        s.message,
        'users "admin" is forbidden: User "system:anonymous" cannot impersonate resource "users" in API group "" at the cluster scope',
      );
      assert.deepEqual(s.details, { name: 'admin', kind: 'users' });
      // not even a public path: impersonation is judged before the request is
      status(
        await request('GET', '/healthz', { headers: { 'impersonate-user': 'admin' } }),
        403,
        'Forbidden',
      );
    });

    it('Impersonate-Group without Impersonate-User is 400', async () => {
      const s = status(
        await request('GET', NAMESPACES, {
          token: ADMIN,
          headers: { 'impersonate-group': 'system:masters' },
        }),
        400,
        'BadRequest',
      );
      assert.match(s.message, /without impersonating a user/);
    });

    it('an unknown token with impersonation headers is still 401', async () => {
      status(
        await request('GET', NAMESPACES, {
          token: 'no-such-token',
          headers: { 'impersonate-user': 'admin', 'impersonate-group': 'system:masters' },
        }),
        401,
        'Unauthorized',
      );
    });
  });

  describe('after authorization', () => {
    it('a deprecated version answers its Warning on errors too', async () => {
      const missing = await request('GET', `${BETA_WIDGETS}/nope`, { token: ADMIN });
      status(missing, 404, 'NotFound');
      assert.deepEqual(warnings(missing), [BETA_WARNING]);

      const bad = await request('POST', BETA_WIDGETS, { token: ADMIN, body: { kind: 'Widget' } });
      assert.ok(bad.statusCode >= 400 && bad.statusCode < 500, bad.body);
      assert.equal(json(bad).kind, 'Status');
      assert.deepEqual(warnings(bad), [BETA_WARNING]);

      const ok = await request('GET', BETA_WIDGETS, { token: ADMIN });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(warnings(ok), [BETA_WARNING]);

      const stable = await request('GET', '/apis/testing.pgkube.io/v1/namespaces/default/widgets', {
        token: ADMIN,
      });
      assert.equal(stable.statusCode, 200, stable.body);
      assert.deepEqual(warnings(stable), [], 'v1 is not deprecated');
    });

    it('a request refused by authorization is refused before the route: no Warning (as kube)', async () => {
      const r = await request('GET', BETA_WIDGETS);
      status(r, 403, 'Forbidden');
      assert.deepEqual(warnings(r), []);
    });

    it('the namespace default may not be deleted; a user namespace may', async () => {
      const s = status(await request('DELETE', `${NAMESPACES}/default`, { token: ADMIN }), 403, 'Forbidden');
      assert.equal(s.message, 'namespaces "default" is forbidden: this namespace may not be deleted');
      assert.deepEqual(s.details, { name: 'default', kind: 'namespaces' });
      const still = await request('GET', `${NAMESPACES}/default`, { token: ADMIN });
      assert.equal(json(still).metadata.deletionTimestamp, undefined);
      assert.equal(json(still).status.phase, 'Active');

      const created = await request('POST', NAMESPACES, {
        token: BOB,
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-bob' } },
      });
      assert.equal(created.statusCode, 201, created.body);
      // an object whose finalizer nobody removes keeps the namespace Terminating (not gone) for the check below
      const held = await request('POST', '/api/v1/namespaces/team-bob/configmaps', {
        token: BOB,
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'held', finalizers: ['example.com/hold'] },
        },
      });
      assert.equal(held.statusCode, 201, held.body);
      const deleted = await request('DELETE', `${NAMESPACES}/team-bob`, { token: BOB });
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.equal(json(deleted).kind, 'Namespace');
      assert.ok(json(deleted).metadata.deletionTimestamp, 'Terminating');
      assert.equal(json(deleted).status.phase, 'Terminating');

      // nothing new goes into a namespace being deleted (kube's NamespaceLifecycle)
      const late = status(
        await request('POST', '/api/v1/namespaces/team-bob/configmaps', {
          token: BOB,
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } },
        }),
        403,
        'Forbidden',
      );
      assert.equal(
        late.message,
        'configmaps "late" is forbidden: unable to create new content in namespace team-bob because it is being terminated',
      );
      assert.deepEqual(
        late.details.causes.map((c: any) => c.reason),
        ['NamespaceTerminating'],
      );
    });

    it('a create in a namespace that does not exist is 404, dryRun too', async () => {
      for (const q of ['', '?dryRun=All']) {
        const s = status(
          await request('POST', `/api/v1/namespaces/nowhere/configmaps${q}`, {
            token: ADMIN,
            body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
          }),
          404,
          'NotFound',
        );
        assert.equal(s.message, 'namespaces "nowhere" not found');
      }
    });
  });
});
