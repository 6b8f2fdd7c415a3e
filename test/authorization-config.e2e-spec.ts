/**
 * --authorization-config against the real server, a real HTTPS webhook on 127.0.0.1 and the real kubectl: the
 * file's webhook is asked only where its CEL match conditions hold, its failure policy decides when it is
 * down (Deny: kube's 500; NoOpinion: the next authorizer), the file is reloaded when it changes (kube's reload
 * metrics), and a file that does not parse or adds a built-in authorizer is refused while the old one stays.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { kubectl } from './support/kubectl.js';
import { serverExit } from './support/server.js';
import { startTokenWebhook, type TokenWebhook } from './support/token-webhook.js';
import { useServer } from './support/use-server.js';

/** The webhook: alice may do anything in `guarded`, bob nothing (an explicit deny). */
function answer(review: any) {
  const spec = review?.spec ?? {};
  if (spec.user === 'alice') return { status: { allowed: true, reason: 'alice may' } };
  return { status: { allowed: false, denied: true, reason: `${spec.user} is not welcome` } };
}

function configFile(webhookKubeconfig: string, o: { match: string; failurePolicy?: string; extra?: string }) {
  return [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AuthorizationConfiguration',
    'authorizers:',
    '- type: Webhook',
    '  name: guard.example.com',
    '  webhook:',
    '    timeout: 2s',
    '    subjectAccessReviewVersion: v1',
    '    matchConditionSubjectAccessReviewVersion: v1',
    `    failurePolicy: ${o.failurePolicy ?? 'Deny'}`,
    '    connectionInfo:',
    '      type: KubeConfigFile',
    `      kubeConfigFile: ${webhookKubeconfig}`,
    '    matchConditions:',
    `    - expression: ${JSON.stringify(o.match)}`,
    '- type: AlwaysAllow',
    '  name: alwaysallow',
    o.extra ?? '',
  ].join('\n');
}

const inGuarded = "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'guarded'";
const inOther = "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'other'";

/** replaces the file at once, as an editor or a ConfigMap mount does (never half written) */
async function replace(file: string, text: string): Promise<void> {
  await writeFile(`${file}.new`, text);
  await rename(`${file}.new`, file);
}

const failures = (metrics: string) =>
  Number(/automatic_reloads_total\{[^}]*status="failure"\} (\d+)/.exec(metrics)?.[1] ?? 0);

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('--authorization-config', () => {
  let webhook: TokenWebhook;
  let file: string;
  let kubeconfig: string;
  const s = useServer(async () => {
    webhook = await startTokenWebhook(answer);
    kubeconfig = await webhook.kubeconfig('secret-of-pgkube');
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-authz-config-'));
    file = path.join(dir, 'authorization.yaml');
    await writeFile(file, configFile(kubeconfig, { match: inGuarded }));
    const tokens = path.join(dir, 'tokens.csv');
    await writeFile(tokens, 'alice-token,alice,uid-a,"team"\nbob-token,bob,uid-b,"team"\n', { mode: 0o600 });
    return { args: [`--authorization-config=${file}`, `--token-auth-file=${tokens}`] };
  });
  after(() => webhook?.close());

  const get = (token: string, namespace: string) =>
    s.request('GET', `/api/v1/namespaces/${namespace}/configmaps`, { token });
  const calls = () => webhook.calls.filter((c) => c.review?.kind === 'SubjectAccessReview').length;

  it('asks the webhook only where the match conditions hold; elsewhere the next authorizer decides', async () => {
    const before = calls();
    assert.equal((await get('bob-token', 'default')).status, 200);
    assert.equal(calls(), before, 'a request outside guarded is not sent');
    const refused = await get('bob-token', 'guarded');
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json.message, /User "bob" cannot list resource "configmaps" .*: bob is not welcome/);
    assert.equal((await get('alice-token', 'guarded')).status, 200);
    const sent = webhook.calls.at(-1)!.review;
    assert.equal(sent.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(sent.spec.groups, ['team', 'system:authenticated']);
    // kubectl too
    const r = await kubectl(['--token=bob-token', 'get', 'configmaps', '-n', 'guarded'], {
      kubeconfig: s.kubeconfig,
    });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /bob is not welcome/);
  });

  it('reloads the file when it changes, and counts the reload', async () => {
    await replace(file, configFile(kubeconfig, { match: inOther }));
    await until('the new match condition', async () => (await get('bob-token', 'guarded')).status === 200);
    assert.equal((await get('bob-token', 'other')).status, 403);
    const metrics = (await s.request('GET', '/metrics')).text;
    assert.match(
      metrics,
      /apiserver_authorization_config_controller_automatic_reloads_total\{apiserver_id_hash="sha256:[0-9a-f]{64}",status="success"\} [1-9]/,
    );
    assert.match(
      metrics,
      /apiserver_authorization_match_condition_exclusions_total\{type="Webhook",name="guard.example.com"\} [1-9]/,
    );
    assert.match(
      metrics,
      /apiserver_authorization_decisions_total\{type="Webhook",name="guard.example.com",decision="denied"\} [1-9]/,
    );
  });

  it('a file that does not parse, or adds a built-in authorizer, is refused; the old one stays', async () => {
    const metrics = async () => (await s.request('GET', '/metrics')).text;
    const before = failures(await metrics());
    await replace(file, 'authorizers: [');
    await until('a failed reload', async () => failures(await metrics()) > before);
    assert.equal((await get('bob-token', 'other')).status, 403);
    // replaced whole (write, then rename): a reload must never read it half written
    await replace(file, configFile(kubeconfig, { match: inGuarded, extra: '- type: RBAC\n  name: rbac\n' }));
    await until('a second failed reload', async () => failures(await metrics()) > before + 1);
    assert.equal((await get('bob-token', 'other')).status, 403, 'still the configuration that guards other');
    assert.match(
      s.output(),
      /not reloaded, the previous configuration stays: .*cannot be added or removed on reload/,
    );
  });

  it("a webhook that is down: failurePolicy Deny is kube's 500, NoOpinion lets the next authorizer decide", async () => {
    const down = await startTokenWebhook(answer);
    const downConfig = await down.kubeconfig('x');
    await down.close();
    await replace(file, configFile(downConfig, { match: inGuarded }));
    await until('the Deny configuration', async () => (await get('bob-token', 'guarded')).status === 500);
    const failed = await get('alice-token', 'guarded');
    assert.equal(failed.status, 500, failed.text);
    assert.match(failed.json.message, /error calling the authorization webhook/);
    assert.equal((await get('alice-token', 'default')).status, 200, 'not matched: not asked');
    await replace(file, configFile(downConfig, { match: inGuarded, failurePolicy: 'NoOpinion' }));
    await until(
      'the NoOpinion configuration',
      async () => (await get('bob-token', 'guarded')).status === 200,
    );
  });

  it('a match condition that fails to evaluate applies the failure policy', async () => {
    await replace(
      file,
      configFile(kubeconfig, { match: "request.resourceAttributes.namespace == 'guarded'" }),
    );
    // a non-resource request has no resourceAttributes: the condition errs, the policy (Deny) decides
    await until(
      'the erring condition',
      async () => (await s.request('GET', '/version', { token: 'bob-token' })).status === 500,
    );
    assert.equal((await get('bob-token', 'default')).status, 200, 'a false condition skips the webhook');
    const metrics = (await s.request('GET', '/metrics')).text;
    assert.match(
      metrics,
      /apiserver_authorization_match_condition_evaluation_errors_total\{type="Webhook",name="guard.example.com"\} [1-9]/,
    );
  });
});

describe('--authorization-config refused at start', () => {
  it('with --authorization-mode, naming both', async () => {
    const { code, output } = await serverExit([
      '--authorization-config=/x.yaml',
      '--authorization-mode=RBAC',
    ]);
    assert.notEqual(code, 0);
    assert.match(
      output,
      /--authorization-config can not be specified when --authorization-mode flags are set/,
    );
  });

  it('a file that does not validate, naming the flag and the field', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-authz-config-'));
    const file = path.join(dir, 'authorization.yaml');
    await writeFile(
      file,
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Webhook\n  name: w\n',
    );
    const { code, output } = await serverExit([`--authorization-config=${file}`]);
    assert.notEqual(code, 0);
    assert.match(
      output,
      /--authorization-config: invalid authorization configuration: authorizers\[0\].webhook: Required value: required when type=Webhook/,
    );
  });
});
