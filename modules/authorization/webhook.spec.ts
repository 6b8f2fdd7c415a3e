/**
 * The Webhook authorizer with the real transport against a real webhook on 127.0.0.1 (plain HTTP here; TLS
 * is proven in test/authorization-webhook.e2e-spec.ts): the SubjectAccessReview bodies kube sends in both
 * versions, how answers are read, what is cached for how long, and errors as no opinion.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { parseRequestInfo, type UserInfo } from '../api/index.js';
import { WebhookTransport, type WebhookVersion } from '../webhook/index.js';
import { requestAttributes, type Attributes } from './authorizer.js';
import { WebhookAuthorizer } from './webhook.js';

/** user name → what the webhook does: a status to answer, an HTTP code, a body as is, or no answer */
type Script = Record<string, { status: unknown } | { code: number } | { raw: string } | 'hang'>;

const alice: UserInfo = {
  name: 'alice',
  uid: 'u-1',
  groups: ['devs', 'system:authenticated'],
  extra: { scopes: ['a', 'b'] },
};

const attrs = (
  user: UserInfo,
  method: string,
  path: string,
  query: Record<string, string> = {},
): Attributes => requestAttributes(user, parseRequestInfo(method, path, query), query);

describe('WebhookAuthorizer against a webhook on 127.0.0.1', () => {
  let server: Server;
  let url: URL;
  let script: Script = {};
  let calls: { review: any; authorization?: string }[] = [];
  const hanging: ServerResponse[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString());
        calls.push({ review, authorization: req.headers.authorization });
        const a = script[review.spec.user] ?? { status: { allowed: false } };
        if (a === 'hang') return void hanging.push(res);
        if ('code' in a) return void res.writeHead(a.code).end();
        if ('raw' in a) return void res.writeHead(200).end(a.raw);
        res.end(
          JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: a.status }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/authorize`);
  });
  after(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    calls = [];
    script = {};
  });

  let clock = 0;
  const authorizer = (
    o: {
      version?: WebhookVersion;
      allowTtl?: number;
      denyTtl?: number;
      timeout?: number;
      log?: string[];
    } = {},
  ) =>
    new WebhookAuthorizer(
      new WebhookTransport(
        { url, insecureSkipTlsVerify: false, token: 'authz-credential' },
        o.timeout ?? 5000,
      ),
      {
        version: o.version ?? 'v1beta1',
        authorizedTtlMs: o.allowTtl ?? 300_000,
        unauthorizedTtlMs: o.denyTtl ?? 30_000,
        selectors: true,
        log: (m) => o.log?.push(m),
        now: () => clock,
      },
    );

  it('v1beta1 (the default): a resource request, groups under `group`, with extra and uid', async () => {
    script.alice = { status: { allowed: true, reason: 'ok' } };
    const verdict = await authorizer().authorize(
      attrs(alice, 'GET', '/apis/apps/v1/namespaces/team/deployments/web/scale'),
    );
    assert.deepEqual(verdict, { decision: 'allow', reason: 'ok' });
    assert.equal(calls[0].authorization, 'Bearer authz-credential');
    assert.deepEqual(calls[0].review, {
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1beta1',
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: {
          namespace: 'team',
          verb: 'get',
          group: 'apps',
          version: 'v1',
          resource: 'deployments',
          subresource: 'scale',
          name: 'web',
        },
        user: 'alice',
        group: ['devs', 'system:authenticated'],
        extra: { scopes: ['a', 'b'] },
        uid: 'u-1',
      },
      status: { allowed: false },
    });
  });

  it('v1: `groups`; a non-resource request carries path and verb', async () => {
    await authorizer({ version: 'v1' }).authorize(attrs(alice, 'GET', '/healthz/ping'));
    assert.deepEqual(calls[0].review, {
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: {
        nonResourceAttributes: { path: '/healthz/ping', verb: 'get' },
        user: 'alice',
        groups: ['devs', 'system:authenticated'],
        extra: { scopes: ['a', 'b'] },
        uid: 'u-1',
      },
      status: { allowed: false },
    });
  });

  it("a list's field and label selectors go as requirements (AuthorizeWithSelectors); gt/lt are left out", async () => {
    const bob = { name: 'bob', uid: '', groups: [] };
    await authorizer({ version: 'v1' }).authorize(
      attrs(bob, 'GET', '/api/v1/namespaces/team/pods', {
        fieldSelector: 'spec.nodeName=n1,metadata.name!=x',
        labelSelector: 'app in (web,api),tier!=db,canary,!legacy,rank>2',
      }),
    );
    assert.deepEqual(calls[0].review.spec, {
      resourceAttributes: {
        namespace: 'team',
        verb: 'list',
        version: 'v1',
        resource: 'pods',
        fieldSelector: {
          requirements: [
            { key: 'metadata.name', operator: 'NotIn', values: ['x'] },
            { key: 'spec.nodeName', operator: 'In', values: ['n1'] },
          ],
        },
        labelSelector: {
          requirements: [
            { key: 'app', operator: 'In', values: ['api', 'web'] },
            { key: 'canary', operator: 'Exists' },
            { key: 'legacy', operator: 'DoesNotExist' },
            { key: 'tier', operator: 'NotIn', values: ['db'] },
          ],
        },
      },
      user: 'bob',
    });
  });

  it('a get carries no selectors (only list, watch and deletecollection do)', async () => {
    await authorizer().authorize(
      attrs(alice, 'GET', '/api/v1/namespaces/team/pods/p', { fieldSelector: 'a=b' }),
    );
    assert.equal(calls[0].review.spec.resourceAttributes.fieldSelector, undefined);
  });

  it('answers: allowed allows, denied denies (with its reason), neither has no opinion', async () => {
    const users = ['yes', 'no', 'unsure'];
    script.yes = { status: { allowed: true } };
    script.no = { status: { allowed: false, denied: true, reason: 'not on Sundays' } };
    script.unsure = { status: { allowed: false, reason: 'ask someone else', evaluationError: 'x' } };
    const a = authorizer();
    const verdicts = await Promise.all(
      users.map((name) => a.authorize(attrs({ name, uid: '', groups: [] }, 'GET', '/api/v1/namespaces'))),
    );
    assert.deepEqual(verdicts, [
      { decision: 'allow', reason: undefined },
      { decision: 'deny', reason: 'not on Sundays' },
      { decision: 'noOpinion', reason: 'ask someone else' },
    ]);
  });

  it('caches allows for the authorized TTL and the rest for the unauthorized TTL, keyed by the whole review', async () => {
    script.yes = { status: { allowed: true } };
    script.no = { status: { allowed: false, denied: true } };
    const a = authorizer({ allowTtl: 1000, denyTtl: 100 });
    const yes = { name: 'yes', uid: '', groups: [] };
    const no = { name: 'no', uid: '', groups: [] };
    clock = 0;
    for (let i = 0; i < 3; i++) {
      await a.authorize(attrs(yes, 'GET', '/api/v1/namespaces'));
      await a.authorize(attrs(no, 'GET', '/api/v1/namespaces'));
    }
    assert.equal(calls.length, 2);
    // another verb is another review
    await a.authorize(attrs(yes, 'DELETE', '/api/v1/namespaces/x'));
    assert.equal(calls.length, 3);
    clock = 150; // the denial expired, the allow did not
    await a.authorize(attrs(yes, 'GET', '/api/v1/namespaces'));
    await a.authorize(attrs(no, 'GET', '/api/v1/namespaces'));
    assert.deepEqual(
      calls.slice(3).map((c) => c.review.spec.user),
      ['no'],
    );
    clock = 1100;
    await a.authorize(attrs(yes, 'GET', '/api/v1/namespaces'));
    assert.equal(calls.length, 5);
  });

  it('a webhook that fails has no opinion: the error logged, never cached; 500 is retried', async () => {
    const log: string[] = [];
    script.broken = { code: 500 };
    script.weird = { raw: '{"kind":"TokenReview","apiVersion":"authentication.k8s.io/v1"}' };
    const a = authorizer({ log, timeout: 1200 });
    const broken = await a.authorize(attrs({ name: 'broken', uid: '', groups: [] }, 'GET', '/version'));
    assert.equal(broken.decision, 'noOpinion');
    assert.match(broken.evaluationError!, /the webhook answered 500/);
    assert.ok(calls.length >= 2, `retried: ${calls.length} calls`);
    const weird = await a.authorize(attrs({ name: 'weird', uid: '', groups: [] }, 'GET', '/version'));
    assert.match(weird.evaluationError!, /malformed SubjectAccessReview answer/);
    assert.equal(log.length, 2);
    assert.ok(!log.join('').includes('authz-credential'));
    const before = calls.length;
    await a.authorize(attrs({ name: 'weird', uid: '', groups: [] }, 'GET', '/version'));
    assert.equal(calls.length, before + 1);
  });

  it('a webhook that does not answer in time has no opinion', async () => {
    script.slow = 'hang';
    const started = Date.now();
    const v = await authorizer({ timeout: 300 }).authorize(
      attrs({ name: 'slow', uid: '', groups: [] }, 'GET', '/version'),
    );
    assert.equal(v.decision, 'noOpinion');
    assert.match(v.evaluationError!, /no answer within 300 ms/);
    assert.ok(Date.now() - started < 2000);
  });

  it('rulesFor: incomplete, as kube says', async () => {
    assert.deepEqual(await authorizer().rulesFor(), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    });
  });
});
