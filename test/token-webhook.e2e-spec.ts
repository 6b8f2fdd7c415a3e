/**
 * Webhook token authentication (--authentication-token-webhook-*) against the real server, a real HTTPS
 * webhook on 127.0.0.1 and the real kubectl: the webhook's yes is the user (name, uid, groups, extra, read back
 * with `kubectl auth whoami`); its no, a timeout and a webhook that is down are 401; yes and no are cached
 * within the TTL; the TokenReview it receives is kube's, in the version asked for; TokenReview asks it too.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { kubectl } from './support/kubectl.js';
import { kubeconfigFor } from './support/kubeconfig.js';
import { startTokenWebhook, type TokenWebhook, type WebhookAnswer } from './support/token-webhook.js';
import { eventually } from './support/eventually.js';
import { useServer } from './support/use-server.js';
import { everything, grant, group } from './support/rbac.js';

const wendy = {
  username: 'wendy',
  uid: 'uid-wendy',
  groups: ['web', 'ops'],
  extra: { 'example.com/team': ['blue', 'green'], scopes: ['read'] },
};

/** good-*: wendy (for the audiences asked, echoed); bad: no; slow: never answers; broken: 500 */
function script(review: any): WebhookAnswer {
  const token: string = review?.spec?.token ?? '';
  if (token.startsWith('good')) {
    const audiences = review.spec.audiences;
    return { status: { authenticated: true, user: wendy, ...(audiences ? { audiences } : {}) } };
  }
  if (token === 'slow') return 'hang';
  if (token === 'broken') return { code: 500 };
  return { status: { authenticated: false } };
}

function webhookServer(version?: 'v1') {
  let webhook: TokenWebhook;
  const s = useServer(async () => {
    webhook = await startTokenWebhook(script);
    return {
      args: [
        `--authentication-token-webhook-config-file=${await webhook.kubeconfig('secret-of-pgkube')}`,
        '--authentication-token-webhook-timeout=2s',
        ...(version ? [`--authentication-token-webhook-version=${version}`] : []),
      ],
    };
  });
  // this file proves who a token makes the caller; what that caller may do is not its subject
  before(() => grant(s, 'authenticated-all', [group('system:authenticated')], everything));
  after(() => webhook?.close());
  return { s, webhook: () => webhook };
}

async function whoami(kubeconfig: string) {
  const r = await kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig, timeoutMs: 60_000 });
  return { ...r, review: r.code === 0 ? JSON.parse(r.stdout) : undefined };
}

describe('token webhook, v1beta1 (the default)', () => {
  const { s, webhook } = webhookServer();

  it("the webhook's yes: kubectl auth whoami shows its user, uid, groups and extra", async () => {
    const r = await whoami(await kubeconfigFor(s.kubeconfig, { token: 'good-1' }));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.review.status.userInfo, { ...wendy, groups: ['web', 'ops', 'system:authenticated'] });
  });

  it("it receives kube's TokenReview: POST to the kubeconfig's URL, v1beta1, with pgkube's own credential", async () => {
    const [call] = webhook().callsFor('good-1');
    assert.equal(call.method, 'POST');
    assert.equal(call.path, '/authenticate');
    assert.equal(call.headers.authorization, 'Bearer secret-of-pgkube');
    assert.equal(call.headers['content-type'], 'application/json');
    assert.equal(
      call.body,
      '{"kind":"TokenReview","apiVersion":"authentication.k8s.io/v1beta1","metadata":{"creationTimestamp":null},' +
        '"spec":{"token":"good-1","audiences":["https://kubernetes.default.svc.cluster.local"]},"status":{"user":{}}}',
    );
  });

  it("the webhook's no is 401", async () => {
    const r = await s.request('GET', '/api/v1/namespaces', { token: 'bad-1' });
    assert.equal(r.status, 401, r.text);
    assert.equal(r.json.reason, 'Unauthorized');
    assert.equal(r.json.message, 'Unauthorized');
    const k = await whoami(await kubeconfigFor(s.kubeconfig, { token: 'bad-1' }));
    assert.notEqual(k.code, 0);
    assert.match(k.stderr, /Unauthorized/);
  });

  it('yes and no are cached within the TTL: the webhook is asked once per token', async () => {
    for (let i = 0; i < 3; i++) {
      assert.equal((await s.request('GET', '/api/v1/namespaces', { token: 'good-2' })).status, 200);
      assert.equal((await s.request('GET', '/api/v1/namespaces', { token: 'bad-2' })).status, 401);
    }
    assert.equal(webhook().callsFor('good-2').length, 1);
    assert.equal(webhook().callsFor('bad-2').length, 1);
  });

  it('a webhook that does not answer: 401 once the timeout passed, and the error is not cached', async () => {
    for (let i = 0; i < 2; i++) {
      const started = Date.now();
      const r = await s.request('GET', '/api/v1/namespaces', { token: 'slow' });
      const took = Date.now() - started;
      assert.equal(r.status, 401, r.text);
      assert.ok(took >= 1900 && took < 8000, `took ${took} ms`);
    }
    assert.equal(webhook().callsFor('slow').length, 2);
    assert.doesNotMatch(s.output(), /slow/, 'no token in the log');
    assert.match(s.output(), /token webhook: no answer within 2000 ms/);
  });

  it('a webhook answering 500 is asked again (kube retries), then 401', async () => {
    const r = await s.request('GET', '/api/v1/namespaces', { token: 'broken' });
    assert.equal(r.status, 401, r.text);
    assert.ok(webhook().callsFor('broken').length >= 2, 'retried');
  });

  it('static tokens come first: the admin token never reaches the webhook', async () => {
    assert.equal((await s.request('GET', '/api/v1/namespaces')).status, 200);
    assert.equal(webhook().callsFor(s.token).length, 0);
  });

  it('TokenReview asks the webhook too, with the audiences asked about', async () => {
    const review = (spec: Record<string, unknown>) =>
      s.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec },
      });
    const yes = await review({ token: 'good-3', audiences: ['https://aud.example'] });
    assert.equal(yes.status, 201, yes.text);
    assert.deepEqual(yes.json.status, {
      authenticated: true,
      user: { ...wendy, groups: ['web', 'ops', 'system:authenticated'] },
      audiences: ['https://aud.example'],
    });
    assert.deepEqual(webhook().callsFor('good-3')[0].review.spec.audiences, ['https://aud.example']);
    const no = await review({ token: 'bad-3' });
    assert.equal(no.status, 201, no.text);
    assert.deepEqual(no.json.status, { user: {}, error: 'invalid bearer token' });
  });
});

describe('token webhook, v1', () => {
  const { s, webhook } = webhookServer('v1');

  it('sends and reads authentication.k8s.io/v1 TokenReviews', async () => {
    const r = await whoami(await kubeconfigFor(s.kubeconfig, { token: 'good-v1' }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.review.status.userInfo.username, 'wendy');
    assert.equal(webhook().callsFor('good-v1')[0].review.apiVersion, 'authentication.k8s.io/v1');
  });
});

describe('token webhook that is down', () => {
  let port = 0;
  const s = useServer(async () => {
    // a port nothing listens on (taken, then let go)
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const webhook = await startTokenWebhook(script);
    const file = await webhook.kubeconfig('secret');
    await webhook.close();
    const { readFile, writeFile } = await import('node:fs/promises');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`));
    return { args: [`--authentication-token-webhook-config-file=${file}`] };
  });
  before(() => assert.ok(port > 0));

  it('a token only the webhook could know is 401 at once; other credentials and anonymous still work', async () => {
    const started = Date.now();
    const r = await s.request('GET', '/api/v1/namespaces', { token: 'good-down' });
    assert.equal(r.status, 401, r.text);
    assert.ok(Date.now() - started < 5000);
    // the server's log line travels through its stderr pipe, which may arrive after the answer
    await eventually(
      () => /token webhook: request failed: connect ECONNREFUSED/.test(s.output()),
      'the failure logged',
      5000,
    );
    assert.equal((await s.request('GET', '/api/v1/namespaces')).status, 200);
    assert.equal((await s.request('GET', '/version', { token: null })).status, 200);
  });
});
