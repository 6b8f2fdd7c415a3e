/** --authorization-config's authorizers: judged as one configuration, reloaded as kube reloads them. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseRequestInfo, type UserInfo } from '../api/index.js';
import { requestAttributes, type Verdict } from './authorizer.js';
import { ConfiguredAuthorizers, type NamedAuthorizer, type ReloadStatus } from './configured.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pgkube-configured-'));
const kubeconfig = path.join(dir, 'webhook.kubeconfig');
writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\n');

const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:authenticated'] };
const request = requestAttributes(alice, parseRequestInfo('GET', '/api/v1/namespaces', {}));

/** a webhook named `allow-…` allows, `deny-…` denies, others have no opinion */
const webhook = (name: string) => `
- type: Webhook
  name: ${name}
  webhook:
    timeout: 1s
    subjectAccessReviewVersion: v1
    failurePolicy: NoOpinion
    connectionInfo: {type: KubeConfigFile, kubeConfigFile: ${kubeconfig}}`;
const file = (...authorizers: string[]) =>
  `apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:${authorizers.join('')}\n`;
const rbac = '\n- type: RBAC\n  name: rbac';

function verdictOf(name: string): Verdict {
  if (name.startsWith('allow')) return { decision: 'allow' };
  if (name.startsWith('deny')) return { decision: 'deny', reason: `${name} says no` };
  if (name.startsWith('broken')) return { decision: 'noOpinion', evaluationError: `${name} is down` };
  return { decision: 'noOpinion', reason: `${name} does not know` };
}

function setup(text: string) {
  const configFile = path.join(dir, `${Math.random()}.yaml`);
  writeFileSync(configFile, text);
  const reloads: ReloadStatus[] = [];
  const decisions: string[] = [];
  const logs: string[] = [];
  const configured = new ConfiguredAuthorizers({
    file: configFile,
    check: () => undefined,
    build: async (config) =>
      config.authorizers.map((a): NamedAuthorizer => ({
        type: a.type,
        name: a.name,
        authorizer: { authorize: async () => verdictOf(a.name) },
      })),
    log: (m) => logs.push(m),
    onReload: (status) => reloads.push(status),
    onDecision: (type, name, decision) => decisions.push(`${type}/${name}=${decision}`),
    pollMs: 50,
  });
  return { configFile, configured, reloads, decisions, logs };
}

describe('ConfiguredAuthorizers', () => {
  it('asks in order; the first allow or deny decides; decisions are counted per authorizer', async () => {
    const s = setup(file(webhook('quiet'), webhook('deny-first'), webhook('allow-later')));
    await s.configured.start();
    assert.deepEqual(await s.configured.authorize(request), {
      decision: 'deny',
      reason: 'deny-first says no',
    });
    assert.deepEqual(s.decisions, ['Webhook/deny-first=denied']);
    s.configured.stop();
  });

  // kube: nobody allowing and an authorizer failing is the server's 500, so the failure must reach the chain
  it("no opinion keeps every authorizer's reason and error", async () => {
    const s = setup(file(webhook('broken-a'), webhook('quiet')));
    await s.configured.start();
    assert.deepEqual(await s.configured.authorize(request), {
      decision: 'noOpinion',
      reason: 'quiet does not know',
      evaluationError: 'broken-a is down',
    });
    s.configured.stop();
  });

  it('a start with a broken file stops the server, naming the flag', async () => {
    const s = setup(file(' []'));
    await assert.rejects(
      s.configured.start(),
      /^Error: --authorization-config: invalid authorization configuration: authorizers: Required value/,
    );
  });

  it('reloads a changed file; an unchanged one is nothing to do', async () => {
    const s = setup(file(webhook('deny-a'), rbac));
    await s.configured.start();
    await s.configured.reload();
    assert.deepEqual(s.reloads, []);
    await writeFile(s.configFile, file(webhook('allow-b'), rbac));
    await s.configured.reload();
    assert.deepEqual(s.reloads, ['success']);
    assert.equal((await s.configured.authorize(request)).decision, 'allow');
    s.configured.stop();
  });

  it('a broken file or one that adds a built-in authorizer keeps the old one, reported once', async () => {
    const s = setup(file(webhook('allow-a'), rbac));
    await s.configured.start();
    await writeFile(s.configFile, 'authorizers: [');
    await s.configured.reload();
    await s.configured.reload();
    assert.deepEqual(s.reloads, ['failure']);
    assert.match(
      s.logs.at(-1)!,
      /not reloaded, the previous configuration stays: --authorization-config: failed to load/,
    );
    await writeFile(s.configFile, file(webhook('deny-b'), rbac, '\n- type: Node\n  name: node'));
    await s.configured.reload();
    assert.deepEqual(s.reloads, ['failure', 'failure']);
    assert.match(s.logs.at(-1)!, /cannot be added or removed on reload/);
    assert.equal((await s.configured.authorize(request)).decision, 'allow');
    s.configured.stop();
  });

  it('finds a change by itself (file watch, else the poll)', async () => {
    const s = setup(file(webhook('allow-a')));
    await s.configured.start();
    await writeFile(s.configFile, file(webhook('deny-b')));
    const until = Date.now() + 5000;
    while (s.reloads.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await s.configured.reload();
    assert.deepEqual(s.reloads, ['success']);
    assert.equal((await s.configured.authorize(request)).decision, 'deny');
    s.configured.stop();
  });
});
