/**
 * The Webhook authorizer (--authorization-mode=Webhook,ABAC) against the real server, a real HTTPS webhook on
 * 127.0.0.1 and the real kubectl: the webhook's allow lets a request through, its deny stops the chain (ABAC
 * after it would allow), its no opinion passes to ABAC; the SubjectAccessReview it receives is kube's (v1beta1
 * by default, v1 when asked) with the request's selectors; answers are cached (one call for repeated
 * requests); a webhook that times out or is down has no opinion, logged without credentials (a later
 * authorizer may allow; if none does, kube answers 500); kube's webhook metrics; `kubectl auth can-i --list`
 * warns that the list is incomplete.
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectl } from './support/kubectl.js';
import { kubeconfigFor } from './support/kubeconfig.js';
import { startTokenWebhook, type TokenWebhook, type WebhookAnswer } from './support/token-webhook.js';
import { useServer } from './support/use-server.js';

const AUTHZ = '/apis/authorization.k8s.io/v1';

/**
 * alice: configmaps and the access reviews; mallory: explicitly denied resources; slow: never answered;
 * broken: 500; everyone else: no opinion.
 */
function script(review: any): WebhookAnswer {
  const spec = review?.spec ?? {};
  const r = spec.resourceAttributes ?? {};
  // discovery and the other non-resource paths, for everyone (kubectl needs them)
  if (spec.nonResourceAttributes) return { status: { allowed: true } };
  switch (spec.user) {
    case 'alice':
      if (r.resource === 'configmaps' || r.group === 'authorization.k8s.io')
        return { status: { allowed: true, reason: 'alice may' } };
      return { status: { allowed: false, reason: 'not alice' } };
    case 'mallory':
      return { status: { allowed: false, denied: true, reason: 'mallory is banned' } };
    case 'slow':
      return 'hang';
    case 'broken':
      return { code: 500 };
    default:
      return { status: { allowed: false } };
  }
}

const ABAC_ALL = ['mallory', 'slow', 'broken']
  .map((user) =>
    JSON.stringify({
      apiVersion: 'abac.authorization.kubernetes.io/v1beta1',
      kind: 'Policy',
      spec: { user, namespace: user === 'mallory' ? '*' : 'nowhere', resource: '*', apiGroup: '*' },
    }),
  )
  .join('\n');

async function tempFile(name: string, text: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-authz-webhook-')), name);
  await writeFile(file, text, { mode: 0o600 });
  return file;
}

function webhookServer(version?: 'v1') {
  let webhook: TokenWebhook;
  const s = useServer(async () => {
    webhook = await startTokenWebhook(script);
    return {
      args: [
        '--authorization-mode=Webhook,ABAC',
        `--authorization-webhook-config-file=${await webhook.kubeconfig('secret-of-pgkube')}`,
        '--authorization-webhook-timeout=2s',
        `--authorization-policy-file=${await tempFile('policy.jsonl', ABAC_ALL)}`,
        `--token-auth-file=${await tempFile('tokens.csv', ['alice', 'mallory', 'slow', 'broken', 'bob'].map((u) => `${u}-token,${u},uid-${u},"team"`).join('\n'))}`,
        ...(version ? [`--authorization-webhook-version=${version}`] : []),
      ],
    };
  });
  after(() => webhook?.close());
  return { s, webhook: () => webhook };
}

describe('authorization webhook, v1beta1 (the default)', () => {
  const { s, webhook } = webhookServer();
  const users: Record<string, string> = {};
  before(async () => {
    for (const u of ['alice', 'mallory', 'slow', 'broken', 'bob'])
      users[u] = await kubeconfigFor(s.kubeconfig, { token: `${u}-token` });
  });
  const run = (user: string, ...args: string[]) =>
    kubectl(args, { kubeconfig: users[user], timeoutMs: 60_000 });
  const callsOf = (user: string) => webhook().calls.filter((c) => c.review?.spec?.user === user);

  it("the webhook's allow: kubectl lists; the review is kube's v1beta1 body, with the field selector", async () => {
    const r = await run(
      'alice',
      'get',
      'configmaps',
      '-n',
      'default',
      '--field-selector=metadata.namespace=default',
    );
    assert.equal(r.code, 0, r.stderr);
    const call = callsOf('alice').find((c) => c.review.spec.resourceAttributes?.resource === 'configmaps')!;
    assert.equal(call.method, 'POST');
    assert.equal(call.headers.authorization, 'Bearer secret-of-pgkube');
    assert.equal(call.headers['content-type'], 'application/json');
    assert.deepEqual(call.review, {
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1beta1',
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: {
          namespace: 'default',
          verb: 'list',
          version: 'v1',
          resource: 'configmaps',
          fieldSelector: {
            requirements: [{ key: 'metadata.namespace', operator: 'In', values: ['default'] }],
          },
        },
        user: 'alice',
        group: ['team', 'system:authenticated'],
        uid: 'uid-alice',
      },
      status: { allowed: false },
    });
  });

  it('answers are cached: repeated requests call the webhook once', async () => {
    const before = callsOf('alice').length;
    for (let i = 0; i < 3; i++) {
      const r = await run('alice', 'get', 'configmaps', '-n', 'kube-system');
      assert.equal(r.code, 0, r.stderr);
    }
    const asked = callsOf('alice')
      .slice(before)
      .filter((c) => c.review.spec.resourceAttributes?.namespace === 'kube-system');
    assert.equal(asked.length, 1);
    // a denial is cached too (for the unauthorized TTL)
    const secrets = () =>
      callsOf('mallory').filter((c) => c.review.spec.resourceAttributes?.resource === 'secrets');
    await run('mallory', 'get', 'secrets', '-n', 'kube-system');
    await run('mallory', 'get', 'secrets', '-n', 'kube-system');
    assert.equal(secrets().length, 1);
  });

  it("the webhook's deny stops the chain: ABAC, which allows mallory everything, is not asked", async () => {
    const r = await run('mallory', 'get', 'configmaps', '-n', 'default');
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /configmaps is forbidden: User "mallory" cannot list resource "configmaps" in API group "" in the namespace "default": mallory is banned/,
    );
  });

  it('no opinion passes to the next authorizer; nobody allowing is forbidden', async () => {
    const r = await run('bob', 'get', 'configmaps', '-n', 'default');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /User "bob" cannot list resource "configmaps".*No policy matched\./);
  });

  it('a webhook that does not answer in time, or is down, has no opinion; nobody else allowing, kube answers 500', async () => {
    const started = Date.now();
    const slow = await s.request('GET', '/api/v1/namespaces/default/configmaps', { token: 'slow-token' });
    assert.equal(slow.status, 500, slow.text);
    assert.ok(Date.now() - started >= 1900, 'waited for the timeout');
    assert.equal(slow.json.reason, 'InternalError');
    assert.equal(
      slow.json.message,
      'Internal Server Error: "/api/v1/namespaces/default/configmaps": error calling the authorization webhook: no answer within 2000 ms',
    );
    const broken = await s.request('GET', '/api/v1/namespaces/default/configmaps', { token: 'broken-token' });
    assert.equal(broken.status, 500);
    assert.match(broken.json.message, /the webhook answered 500$/);
    assert.ok(callsOf('broken').length >= 2, 'a 500 is retried');
    // no opinion: an authorizer after it may still allow (ABAC gives broken the namespace "nowhere")
    const allowed = await s.request('GET', '/api/v1/namespaces/nowhere/configmaps', {
      token: 'broken-token',
    });
    assert.equal(allowed.status, 200, allowed.text);
    assert.match(s.output(), /authorization webhook: the webhook answered 500/);
    assert.doesNotMatch(s.output(), /secret-of-pgkube/);
  });

  it('SubjectAccessReview reports the webhook: denied only on an explicit deny, errors as evaluationError', async () => {
    const sar = async (user: string) =>
      (
        await s.request('POST', `${AUTHZ}/subjectaccessreviews`, {
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: { user, resourceAttributes: { namespace: 'ns', verb: 'get', resource: 'configmaps' } },
          },
        })
      ).json.status;
    assert.deepEqual(await sar('alice'), { allowed: true, reason: 'alice may' });
    assert.deepEqual(await sar('mallory'), { allowed: false, denied: true, reason: 'mallory is banned' });
    assert.deepEqual(await sar('bob'), { allowed: false, reason: 'No policy matched.' });
    const broken = await sar('broken');
    assert.equal(broken.allowed, false);
    assert.equal(broken.denied, undefined);
    assert.match(broken.evaluationError, /the webhook answered 500/);
  });

  it("kube's webhook metrics: evaluations by result, failing open, durations; decisions by mode", async () => {
    const text = (await s.request('GET', '/metrics')).text;
    const value = (line: string) =>
      Number(text.match(new RegExp(`^${line.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm'))?.[1]);
    assert.ok(
      value('apiserver_authorization_webhook_evaluations_total{name="webhook",result="success"}') > 0,
      text,
    );
    assert.ok(
      value('apiserver_authorization_webhook_evaluations_total{name="webhook",result="timeout"}') >= 1,
    );
    assert.ok(value('apiserver_authorization_webhook_evaluations_total{name="webhook",result="error"}') >= 1);
    assert.ok(
      value('apiserver_authorization_webhook_evaluations_fail_open_total{name="webhook",result="error"}') >=
        1,
    );
    assert.ok(
      value('apiserver_authorization_webhook_duration_seconds_count{name="webhook",result="success"}') > 0,
    );
    // terminal decisions by mode: the webhook's allows and denies, ABAC's allows
    const decisions = (labels: string[]) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('apiserver_authorization_decisions_total{'))
        .filter((l) => labels.every((label) => l.includes(label)))
        .map((l) => Number(l.split(' ').pop()));
    assert.ok(decisions(['type="Webhook"', 'name="webhook"', 'decision="allowed"'])[0] > 0, text);
    assert.ok(decisions(['type="Webhook"', 'name="webhook"', 'decision="denied"'])[0] > 0);
    assert.ok(decisions(['type="ABAC"', 'name="abac"', 'decision="allowed"'])[0] > 0);
  });

  it('kubectl auth can-i asks the webhook; --list warns that the list may be incomplete', async () => {
    const yes = await run('alice', 'auth', 'can-i', 'create', 'configmaps', '-n', 'team');
    assert.deepEqual([yes.code, yes.stdout.trim()], [0, 'yes']);
    const no = await run('alice', 'auth', 'can-i', 'create', 'secrets', '-n', 'team');
    // the reasons of the authorizers without an opinion, in chain order
    assert.deepEqual([no.code, no.stdout.trim()], [1, 'no - not alice; No policy matched.']);
    const list = await run('alice', 'auth', 'can-i', '--list', '-n', 'team');
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stderr,
      /the list may be incomplete: webhook authorizer does not support user rule resolution/,
    );
  });
});

describe('authorization webhook, v1', () => {
  const { s, webhook } = webhookServer('v1');

  it('sends v1 reviews (`groups`) and reads their answers', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/default/configmaps?labelSelector=app%3Dweb', {
      token: 'alice-token',
    });
    assert.equal(r.status, 200, r.text);
    const call = webhook().calls.find((c) => c.review?.spec?.user === 'alice')!;
    assert.equal(call.review.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(call.review.spec.groups, ['team', 'system:authenticated']);
    assert.equal(call.review.spec.group, undefined);
    assert.deepEqual(call.review.spec.resourceAttributes.labelSelector, {
      requirements: [{ key: 'app', operator: 'In', values: ['web'] }],
    });
  });
});
