/**
 * The webhook token authenticator with its real client against a real webhook on 127.0.0.1 (plain HTTP
 * here; TLS is proven in test/token-webhook.e2e-spec.ts): kube's reading of yes, no, errors and audiences,
 * what is cached and what is not, retries, and the deadline.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ApiError } from '../../api/index.js';
import { CredentialRefused, type AuthenticationRequest } from '../authenticator.js';
import { WebhookTokenAuthenticator } from './authenticator.js';
import { TokenReviewClient, type WebhookVersion } from './client.js';

interface Call {
  review: any;
  authorization?: string;
}

/** token → what the webhook does: a status to answer, an HTTP code, a body as is, or no answer at all */
type Script = Record<string, { status: unknown } | { code: number } | { raw: string } | 'hang'>;

describe('WebhookTokenAuthenticator against a webhook on 127.0.0.1', () => {
  let server: Server;
  let url: URL;
  let script: Script = {};
  let calls: Call[] = [];
  const hanging: ServerResponse[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString());
        calls.push({ review, authorization: req.headers.authorization });
        const a = script[review.spec.token] ?? { status: { authenticated: false } };
        if (a === 'hang') return void hanging.push(res);
        if ('code' in a) return void res.writeHead(a.code).end();
        if ('raw' in a) return void res.writeHead(200).end(a.raw);
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'TokenReview', status: a.status }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/review`);
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

  const authenticator = (
    o: {
      version?: WebhookVersion;
      ttl?: number;
      timeout?: number;
      apiAudiences?: string[];
      log?: string[];
    } = {},
  ) =>
    new WebhookTokenAuthenticator(
      new TokenReviewClient(
        { url, insecureSkipTlsVerify: false, token: 'pgkube-credential' },
        o.version ?? 'v1beta1',
        o.timeout ?? 5000,
      ),
      { cacheTtlMs: o.ttl ?? 60_000, apiAudiences: o.apiAudiences, log: (m) => o.log?.push(m) },
    );
  const request = (token?: string, audiences?: string[]): AuthenticationRequest => ({
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    rawHeaders: [],
    peerCertificates: () => undefined,
    audiences,
  });
  const refusal = async (p: Promise<unknown>): Promise<string> => {
    const e = await p.then(
      () => assert.fail('expected a refusal'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof CredentialRefused, String(e));
    assert.equal((e as ApiError).code, 401);
    assert.equal((e as ApiError).message, 'Unauthorized');
    return (e as CredentialRefused).why;
  };

  it('no bearer token: not its business, the webhook is not asked', async () => {
    assert.equal(await authenticator().authenticate(request()), undefined);
    assert.equal(calls.length, 0);
  });

  it("yes: the webhook's user with uid, groups and extra; its own credential sent along", async () => {
    script.t = {
      status: { authenticated: true, user: { username: 'w', uid: 'u', groups: ['g'], extra: { k: ['v'] } } },
    };
    assert.deepEqual(await authenticator().authenticate(request('t')), {
      name: 'w',
      uid: 'u',
      groups: ['g'],
      extra: { k: ['v'] },
    });
    assert.equal(calls[0].authorization, 'Bearer pgkube-credential');
    assert.deepEqual(calls[0].review, {
      kind: 'TokenReview',
      apiVersion: 'authentication.k8s.io/v1beta1',
      metadata: { creationTimestamp: null },
      spec: { token: 't' },
      status: { user: {} },
    });
  });

  it('v1 is sent when asked for; a v1beta1 answer to it is read all the same', async () => {
    script.t = {
      raw: JSON.stringify({
        apiVersion: 'authentication.k8s.io/v1beta1',
        kind: 'TokenReview',
        status: { authenticated: true, user: { username: 'w' } },
      }),
    };
    const user = await authenticator({ version: 'v1' }).authenticate(request('t'));
    assert.equal(user?.name, 'w');
    assert.equal(calls[0].review.apiVersion, 'authentication.k8s.io/v1');
  });

  it('no: refused as an invalid bearer token and cached; no with a reason: refused with it, not cached', async () => {
    const a = authenticator();
    assert.equal(await refusal(a.authenticate(request('no'))), 'invalid bearer token');
    assert.equal(await refusal(a.authenticate(request('no'))), 'invalid bearer token');
    script.why = { status: { authenticated: false, error: 'token expired' } };
    assert.equal(await refusal(a.authenticate(request('why'))), 'token expired');
    assert.equal(await refusal(a.authenticate(request('why'))), 'token expired');
    assert.deepEqual(
      calls.map((c) => c.review.spec.token),
      ['no', 'why', 'why'],
    );
  });

  it('answers are kept per audiences; a TTL of 0 keeps none', async () => {
    script.t = { status: { authenticated: true, user: { username: 'w' }, audiences: ['a', 'b'] } };
    const a = authenticator();
    await a.authenticate(request('t', ['a']));
    await a.authenticate(request('t', ['a']));
    await a.authenticate(request('t', ['b']));
    assert.equal(calls.length, 2);
    const none = authenticator({ ttl: 0 });
    await none.authenticate(request('t'));
    await none.authenticate(request('t'));
    assert.equal(calls.length, 4);
  });

  it("audiences as kube reads them: the webhook's, else the API's; none in common is no", async () => {
    script.named = { status: { authenticated: true, user: { username: 'w' }, audiences: ['b', 'c'] } };
    script.unnamed = { status: { authenticated: true, user: { username: 'w' } } };
    const a = authenticator({ apiAudiences: ['api'] });
    assert.deepEqual((await a.authenticate(request('named', ['a', 'b'])))?.audiences, ['b']);
    assert.deepEqual(calls[0].review.spec.audiences, ['a', 'b']);
    assert.deepEqual((await a.authenticate(request('unnamed', ['api', 'x'])))?.audiences, ['api']);
    assert.equal(await refusal(a.authenticate(request('unnamed', ['x']))), 'invalid bearer token');
    assert.equal(await refusal(a.authenticate(request('named', ['x']))), 'invalid bearer token');
    // no audiences asked: none checked, none reported
    assert.equal((await a.authenticate(request('named')))?.audiences, undefined);
  });

  it('sendAudiences false (a delegating server’s host): no audiences sent, none checked', async () => {
    script.t = { status: { authenticated: true, user: { username: 'w' }, audiences: ['host'] } };
    const a = new WebhookTokenAuthenticator(
      new TokenReviewClient({ url, insecureSkipTlsVerify: false }, 'v1', 5000),
      { cacheTtlMs: 60_000, apiAudiences: ['api'], sendAudiences: false },
    );
    const user = await a.authenticate(request('t', ['api']));
    assert.equal(user?.name, 'w');
    assert.equal(user?.audiences, undefined);
    assert.equal(calls[0].review.spec.audiences, undefined);
  });

  it('errors are refusals, logged without the token, never cached', async () => {
    const log: string[] = [];
    script['secret-1'] = { code: 403 };
    script['secret-2'] = { raw: 'not json' };
    script['secret-3'] = { raw: JSON.stringify({ kind: 'Status', apiVersion: 'v1' }) };
    const a = authenticator({ log });
    assert.match(await refusal(a.authenticate(request('secret-1'))), /the webhook answered 403/);
    assert.match(await refusal(a.authenticate(request('secret-1'))), /the webhook answered 403/);
    assert.match(await refusal(a.authenticate(request('secret-2'))), /not JSON/);
    assert.match(
      await refusal(a.authenticate(request('secret-3'))),
      /malformed TokenReview answer: kind "Status"/,
    );
    assert.equal(calls.length, 4);
    assert.equal(log.length, 4);
    for (const line of log) assert.doesNotMatch(line, /secret/);
  });

  it('500 is retried with backoff (kube: 5 tries), then refused; 403 is not retried', async () => {
    script.t = { code: 500 };
    assert.match(await refusal(authenticator().authenticate(request('t'))), /answered 500/);
    assert.equal(calls.length, 5);
  });

  it('one deadline bounds the review, retries included', async () => {
    script.slow = 'hang';
    let started = Date.now();
    assert.match(
      await refusal(authenticator({ timeout: 300 }).authenticate(request('slow'))),
      /no answer within 300 ms/,
    );
    assert.ok(Date.now() - started < 2000);
    script.t = { code: 500 };
    calls = [];
    started = Date.now();
    await refusal(authenticator({ timeout: 900 }).authenticate(request('t')));
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    assert.ok(calls.length >= 2 && calls.length < 5, `${calls.length} tries`);
  });

  it('a webhook that is down: refused at once', async () => {
    const down = new WebhookTokenAuthenticator(
      new TokenReviewClient(
        { url: new URL('http://127.0.0.1:1/'), insecureSkipTlsVerify: false },
        'v1',
        5000,
      ),
      { cacheTtlMs: 60_000 },
    );
    assert.match(await refusal(down.authenticate(request('t'))), /request failed: connect ECONNREFUSED/);
  });
});
