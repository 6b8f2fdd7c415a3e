/**
 * The delegating server's authorizer chain (kube's DelegatingAuthorizationOptions): the always-allowed paths
 * (for anyone, the anonymous user too), system:masters, then the host's SubjectAccessReview (v1) with its
 * allows and denials cached 10 s each; a host that cannot answer is kube's 500. The host is a real HTTP
 * server on 127.0.0.1 (test/support/host-api.ts).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { hostApi, type HostApi } from '../../test/support/host-api.js';
import { anonymousUser, ApiError, parseRequestInfo, type UserInfo } from '../api/index.js';
import { atHostPath, WebhookTransport } from '../webhook/index.js';
import {
  AlwaysAllowPathsAuthorizer,
  alwaysAllowPathsError,
  DEFAULT_ALWAYS_ALLOW_PATHS,
} from './always-allow-paths.js';
import { requestAttributes, type Attributes } from './authorizer.js';
import { delegatedChain, SUBJECT_ACCESS_REVIEW_PATH } from './delegated.js';

const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:authenticated'] };
const admin: UserInfo = { name: 'root', uid: '', groups: ['system:masters', 'system:authenticated'] };
const attrs = (user: UserInfo, method: string, path: string): Attributes =>
  requestAttributes(user, parseRequestInfo(method, path, {}), {});

describe('AlwaysAllowPathsAuthorizer', () => {
  it('allows exact paths and trailing-* prefixes, with or without the leading /, for non-resource requests only', async () => {
    const a = new AlwaysAllowPathsAuthorizer(['/healthz', 'metrics', '/debug/*']);
    const decision = async (path: string) => (await a.authorize(attrs(anonymousUser, 'GET', path))).decision;
    assert.equal(await decision('/healthz'), 'allow');
    assert.equal(await decision('/metrics'), 'allow');
    assert.equal(await decision('/debug/pprof/heap'), 'allow');
    assert.equal(await decision('/healthz/etcd'), 'noOpinion');
    assert.equal(await decision('/readyz'), 'noOpinion');
    assert.equal(await decision('/api/v1/namespaces/default/pods'), 'noOpinion');
    // "/" allowed as an empty path
    assert.equal(
      (await new AlwaysAllowPathsAuthorizer(['/']).authorize(attrs(alice, 'GET', '/'))).decision,
      'allow',
    );
  });

  it("kube's defaults, and only a trailing * is allowed", () => {
    assert.deepEqual(DEFAULT_ALWAYS_ALLOW_PATHS, ['/healthz', '/readyz', '/livez']);
    assert.equal(alwaysAllowPathsError(['/a*']), undefined);
    assert.equal(alwaysAllowPathsError(['/a/*/b']), 'only trailing * allowed in "a/*/b"');
    assert.throws(() => new AlwaysAllowPathsAuthorizer(['*x']), /only trailing \* allowed/);
  });
});

describe('delegatedChain against a host on 127.0.0.1', () => {
  let host: HostApi;
  let now = 0;
  let allowed: Set<string>;
  const route = `POST ${SUBJECT_ACCESS_REVIEW_PATH}`;
  const chain = (paths: readonly string[] = DEFAULT_ALWAYS_ALLOW_PATHS) =>
    delegatedChain(
      {
        connection: host.connection,
        authorizedTtlMs: 10_000,
        unauthorizedTtlMs: 10_000,
        alwaysAllowPaths: paths,
      },
      new WebhookTransport(atHostPath(host.connection, SUBJECT_ACCESS_REVIEW_PATH), 2000),
      { selectors: true, log: () => {}, now: () => now },
    );
  const reviews = () => host.calls.filter((c) => c.path === SUBJECT_ACCESS_REVIEW_PATH).length;
  const code = (p: Promise<void>) =>
    p.then(
      () => 200,
      (e: unknown) => (e instanceof ApiError ? e : Promise.reject(e)),
    );

  before(async () => {
    host = await hostApi();
  });
  after(() => host.close());
  beforeEach(() => {
    now = 1_000_000;
    allowed = new Set(['alice']);
    host.calls.length = 0;
    host.routes.set(route, (review) => ({
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        status: allowed.has(review.spec.user)
          ? { allowed: true, reason: 'host RBAC' }
          : { allowed: false, reason: 'nobody said yes' },
      },
    }));
  });

  it('health paths are allowed for anyone without asking the host', async () => {
    const c = chain();
    for (const path of ['/healthz', '/readyz', '/livez']) {
      assert.equal(await code(c.check(attrs(anonymousUser, 'GET', path))), 200);
    }
    assert.equal(reviews(), 0);
    // other non-resource paths are the host's to decide
    const r = await code(c.check(attrs(anonymousUser, 'GET', '/version')));
    assert.ok(r instanceof ApiError && r.code === 403);
    assert.equal(reviews(), 1);
  });

  it('system:masters is allowed without asking the host', async () => {
    assert.equal(await code(chain().check(attrs(admin, 'DELETE', '/api/v1/namespaces/x'))), 200);
    assert.equal(reviews(), 0);
  });

  it('the host decides the rest with a v1 SubjectAccessReview sent with the kubeconfig credentials', async () => {
    const c = chain();
    assert.equal(await code(c.check(attrs(alice, 'GET', '/api/v1/namespaces/default/pods'))), 200);
    const call = host.calls[0];
    assert.equal(call.authorization, 'Bearer host-token');
    assert.equal(call.body.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(call.body.spec.resourceAttributes, {
      namespace: 'default',
      verb: 'list',
      version: 'v1',
      resource: 'pods',
    });
    assert.deepEqual(call.body.spec.groups, ['system:authenticated']);
    const bob = { ...alice, name: 'bob' };
    const denied = await code(c.check(attrs(bob, 'GET', '/api/v1/namespaces/default/pods')));
    assert.ok(denied instanceof ApiError);
    assert.equal(denied.code, 403);
    assert.equal(
      denied.message,
      'pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default": nobody said yes',
    );
  });

  it('allows and denials are each kept 10 s', async () => {
    const c = chain();
    const bob = { ...alice, name: 'bob' };
    const list = (u: UserInfo) => attrs(u, 'GET', '/api/v1/namespaces/default/pods');
    await c.check(list(alice));
    await c.check(list(bob)).catch(() => {});
    assert.equal(reviews(), 2);
    // the host changes its mind: not heard before the TTL ends
    allowed = new Set(['bob']);
    now += 9_999;
    assert.equal(await code(c.check(list(alice))), 200);
    assert.ok((await code(c.check(list(bob)))) instanceof ApiError);
    assert.equal(reviews(), 2);
    now += 2;
    assert.ok((await code(c.check(list(alice)))) instanceof ApiError);
    assert.equal(await code(c.check(list(bob))), 200);
    assert.equal(reviews(), 4);
  });

  it('a host that cannot answer: 500 with the failure (kube’s InternalError), never cached', async () => {
    host.routes.set(route, { code: 403, body: { kind: 'Status', message: 'no' } });
    const c = chain();
    const r = await code(c.check(attrs(alice, 'GET', '/api/v1/namespaces/default/pods')));
    assert.ok(r instanceof ApiError);
    assert.equal(r.code, 500);
    assert.match(r.message, /error calling the authorization webhook: the webhook answered 403/);
    await code(c.check(attrs(alice, 'GET', '/api/v1/namespaces/default/pods')));
    assert.equal(reviews(), 2);
    const down = delegatedChain(
      { connection: host.connection, authorizedTtlMs: 1, unauthorizedTtlMs: 1, alwaysAllowPaths: [] },
      new WebhookTransport({ url: new URL('http://127.0.0.1:1/'), insecureSkipTlsVerify: false }, 2000),
      { selectors: true, log: () => {} },
    );
    const refused = await code(down.check(attrs(alice, 'GET', '/healthz')));
    assert.ok(refused instanceof ApiError && refused.code === 500, String(refused));
    assert.match(
      refused.message,
      /error calling the authorization webhook: request failed: connect ECONNREFUSED/,
    );
  });
});
