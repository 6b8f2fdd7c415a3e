/**
 * Anonymous access against the real server: on by default (and still only what authorization allows),
 * off with --anonymous-auth=false, limited to paths by an AuthenticationConfiguration file; a bad token is
 * 401 whatever anonymous allows; --anonymous-auth with the file's anonymous section refuses to start.
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { serverExit } from './support/server.js';
import { useServer } from './support/use-server.js';

async function authenticationConfig(text: string, name = 'authn.yaml'): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-authn-')), name);
  await writeFile(file, text);
  return file;
}

const withLivezOnly = [
  'apiVersion: apiserver.config.k8s.io/v1beta1',
  'kind: AuthenticationConfiguration',
  'anonymous:',
  '  enabled: true',
  '  conditions:',
  '  - path: /livez',
  '',
].join('\n');

describe('anonymous access on (the default)', () => {
  const s = useServer();

  it('no credential: system:anonymous, let in only where authorization allows', async () => {
    assert.equal((await s.request('GET', '/version', { token: null })).status, 200);
    const namespaces = await s.request('GET', '/api/v1/namespaces', { token: null });
    assert.equal(namespaces.status, 403, namespaces.text);
    assert.match(namespaces.json.message, /User "system:anonymous" cannot list resource "namespaces"/);
  });

  it('a bad token is 401, not anonymous', async () => {
    const r = await s.request('GET', '/version', { token: 'not-a-token' });
    assert.equal(r.status, 401, r.text);
    assert.equal(r.json.reason, 'Unauthorized');
  });

  // kube's bearer-token reader: another scheme, or `Bearer` with nothing after one space, is no credential
  it('an Authorization header that is no bearer token is anonymous', async () => {
    for (const authorization of ['Basic YWxpY2U6cGFzcw==', 'Bearer', 'Bearer  spaced']) {
      const who = await s.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        token: null,
        headers: { authorization },
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      });
      assert.equal(who.status, 403, `${authorization}: ${who.text}`);
      assert.match(who.json.message, /User "system:anonymous" cannot create resource "selfsubjectreviews"/);
    }
  });
});

describe('--anonymous-auth=false', () => {
  const s = useServer({ args: ['--anonymous-auth=false'] });

  it('no credential is 401 everywhere, public paths included; credentials still work', async () => {
    for (const p of ['/version', '/livez', '/api/v1/namespaces']) {
      const r = await s.request('GET', p, { token: null });
      assert.equal(r.status, 401, `${p}: ${r.text}`);
    }
    assert.equal((await s.request('GET', '/api/v1/namespaces')).status, 200);
  });
});

describe('--authentication-config with anonymous conditions', () => {
  const s = useServer(async () => ({
    args: [`--authentication-config=${await authenticationConfig(withLivezOnly)}`],
  }));

  it('anonymous on the listed path only; elsewhere no credential is 401', async () => {
    assert.equal((await s.request('GET', '/livez', { token: null })).status, 200);
    for (const p of ['/version', '/readyz', '/livez/ping']) {
      const r = await s.request('GET', p, { token: null });
      assert.equal(r.status, 401, `${p}: ${r.text}`);
    }
    assert.equal((await s.request('GET', '/livez', { token: 'bad' })).status, 401);
    assert.equal((await s.request('GET', '/version')).status, 200);
  });
});

describe('refused at start', () => {
  it('--anonymous-auth together with an anonymous section in --authentication-config, naming both', async () => {
    const file = await authenticationConfig(withLivezOnly);
    const { code, output } = await serverExit(['--anonymous-auth=true', `--authentication-config=${file}`]);
    assert.notEqual(code, 0, output);
    assert.match(output, /--anonymous-auth and --authentication-config: /);
    assert.match(
      output,
      /--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file/,
    );
    assert.doesNotMatch(output, /serving on/);
  });

  it('an invalid file (conditions without enabled), naming the flag and the field', async () => {
    const file = await authenticationConfig(withLivezOnly.replace('enabled: true', 'enabled: false'));
    const { code, output } = await serverExit([`--authentication-config=${file}`]);
    assert.notEqual(code, 0, output);
    assert.match(
      output,
      /--authentication-config: invalid authentication configuration: anonymous\.conditions: Invalid value: .*enabled should be set to true when conditions are defined/,
    );
  });

  it('a token webhook kubeconfig without a current context, naming the flag', async () => {
    const file = await authenticationConfig('apiVersion: v1\nkind: Config\n', 'webhook.kubeconfig');
    const { code, output } = await serverExit([`--authentication-token-webhook-config-file=${file}`]);
    assert.notEqual(code, 0, output);
    assert.match(output, /--authentication-token-webhook-config-file: current-context is not set/);
  });
});
