/**
 * Bootstrap tokens against the real server: a token `<id>.<secret>` whose Secret allows it is the user
 * `system:bootstrap:<id>` (read back with `kubectl auth whoami`), every Secret
 * that breaks a rule makes it a 401; `tokencleaner` deletes expired token Secrets at their expiration;
 * `bootstrapsigner` keeps cluster-info signed, the JWS checked with jose, not with our own code. The
 * controllers run only when `--controllers` names them, as in kube.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { parse as parseYaml } from 'yaml';
import { eventually } from './support/eventually.js';
import { kubectl } from './support/kubectl.js';
import { type TestServer } from './support/server.js';
import { useServer } from './support/use-server.js';

const SECRETS = '/api/v1/namespaces/kube-system/secrets';
const CLUSTER_INFO = '/api/v1/namespaces/kube-public/configmaps/cluster-info';
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomText(length: number): string {
  return [...randomBytes(length)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

interface Token {
  id: string;
  secret: string;
  token: string;
}

/** every secret part a test made or sent: none may reach the server's output */
const secretParts: string[] = [];

function newToken(): Token {
  const id = randomText(6);
  const secret = randomText(16);
  secretParts.push(secret);
  return { id, secret, token: `${id}.${secret}` };
}

function wrongSecret(): string {
  const secret = randomText(16);
  secretParts.push(secret);
  return secret;
}

/** RFC 3339 in UTC, whole seconds, `ms` from now */
function inFuture(ms: number): string {
  return new Date(Date.now() + ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** Creates `kube-system/bootstrap-token-<id>` as the admin; `data` entries set to undefined are left out. */
async function createTokenSecret(
  s: TestServer,
  t: Token,
  data: Record<string, string | undefined> = {},
  extra: { finalizers?: string[]; type?: string } = {},
): Promise<void> {
  const stringData: Record<string, string> = {};
  const all = {
    'token-id': t.id,
    'token-secret': t.secret,
    'usage-bootstrap-authentication': 'true',
    ...data,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) stringData[k] = v;
  const r = await s.request('POST', SECRETS, {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `bootstrap-token-${t.id}`, finalizers: extra.finalizers },
      type: extra.type ?? 'bootstrap.kubernetes.io/token',
      stringData,
    },
  });
  assert.equal(r.status, 201, r.text);
}

/** The answer to a request with the token (node:https): its status and body (discovery: any user may read it). */
const asToken = (s: TestServer, token: string) => s.request('GET', '/api', { token });

async function assertUnauthorized(s: TestServer, token: string, why: string): Promise<void> {
  const r = await asToken(s, token);
  assert.equal(r.status, 401, `${why}: ${r.text}`);
  assert.equal(r.json?.kind, 'Status', why);
  assert.equal(r.json?.reason, 'Unauthorized', why);
  assert.ok(!r.text.includes(token.slice(7)), `${why}: the answer names the token`);
}

describe('bootstrap token authentication (--enable-bootstrap-token-auth)', () => {
  // kube's defaults: tokencleaner and bootstrapsigner are off unless named
  const s = useServer({ args: ['--enable-bootstrap-token-auth'] });
  const k = (args: string[], token?: string, input?: string) =>
    kubectl(token ? [`--token=${token}`, ...args] : args, {
      kubeconfig: s.kubeconfig,
      input,
      timeoutMs: 60_000,
    });

  it('a valid token is system:bootstrap:<id> in system:bootstrappers, its extra groups and system:authenticated', async () => {
    const t = newToken();
    await createTokenSecret(s, t, {
      description: 'for the e2e test',
      expiration: inFuture(3_600_000),
      'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:kubeadm:default-node-token',
    });
    const r = await k(['auth', 'whoami', '-o', 'json'], t.token);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).status.userInfo, {
      username: `system:bootstrap:${t.id}`,
      groups: [
        'system:bootstrappers',
        'system:bootstrappers:kubeadm:default-node-token',
        'system:bootstrappers:worker',
        'system:authenticated',
      ],
    });
  });

  it('kubectl with a token its Secret refuses: "You must be logged in to the server"', async () => {
    const t = newToken();
    await createTokenSecret(s, t);
    const r = await k(['get', 'configmaps', '-n', 'default'], `${t.id}.${wrongSecret()}`);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /error: You must be logged in to the server/);
  });

  it('a token whose Secret breaks a rule is 401 (the Secret itself was accepted at write time)', async () => {
    const cases: [
      string,
      Record<string, string | undefined>,
      { type?: string; token?: (t: Token) => string }?,
    ][] = [
      ['no usage-bootstrap-authentication', { 'usage-bootstrap-authentication': undefined }],
      ['usage-bootstrap-authentication "false"', { 'usage-bootstrap-authentication': 'false' }],
      ['usage-bootstrap-authentication "yes"', { 'usage-bootstrap-authentication': 'yes' }],
      ['an expiration passed', { expiration: '2020-01-01T00:00:00Z' }],
      ['an expiration that is no RFC 3339 time', { expiration: 'next week' }],
      ['an extra group outside system:bootstrappers:', { 'auth-extra-groups': 'system:masters' }],
      [
        'one bad extra group among good ones',
        { 'auth-extra-groups': 'system:bootstrappers:a,system:bootstrappers:B' },
      ],
      ['a token-id other than the name', { 'token-id': 'zzzzzz' }],
      ['a wrong secret part', {}, { token: (t) => `${t.id}.${wrongSecret()}` }],
      ['another Secret type', {}, { type: 'Opaque' }],
    ];
    for (const [why, data, o] of cases) {
      const t = newToken();
      await createTokenSecret(s, t, data, { type: o?.type });
      await assertUnauthorized(s, o?.token?.(t) ?? t.token, why);
    }
    await assertUnauthorized(s, newToken().token, 'no Secret at all');
  });

  it('a token stops authenticating once its Secret is being deleted, and once it is gone', async () => {
    const kept = newToken();
    await createTokenSecret(s, kept, {}, { finalizers: ['example.com/hold'] });
    assert.equal((await asToken(s, kept.token)).status, 200);
    const del = await s.request('DELETE', `${SECRETS}/bootstrap-token-${kept.id}`);
    assert.ok([200, 202].includes(del.status), del.text);
    assert.ok(del.json.metadata.deletionTimestamp, 'the finalizer keeps the Secret, being deleted');
    await assertUnauthorized(s, kept.token, 'a Secret being deleted');
    const patched = await s.request('PATCH', `${SECRETS}/bootstrap-token-${kept.id}`, {
      raw: JSON.stringify({ metadata: { finalizers: null } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, patched.text);

    const t = newToken();
    await createTokenSecret(s, t);
    assert.equal((await asToken(s, t.token)).status, 200);
    assert.equal((await s.request('DELETE', `${SECRETS}/bootstrap-token-${t.id}`)).status, 200);
    await assertUnauthorized(s, t.token, 'a deleted Secret');
  });

  it('neither controller runs unless named: expired tokens stay, no cluster-info', async () => {
    const t = newToken();
    await createTokenSecret(s, t, { expiration: '2020-01-01T00:00:00Z', 'usage-bootstrap-signing': 'true' });
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await s.request('GET', `${SECRETS}/bootstrap-token-${t.id}`)).status, 200);
    assert.equal((await s.request('GET', CLUSTER_INFO)).status, 404);
  });

  it('no secret part of a token reaches the log', () => {
    const output = s.output();
    assert.ok(secretParts.length > 10);
    for (const secret of secretParts) assert.ok(!output.includes(secret), 'a secret part in the log');
  });
});

describe('bootstrapsigner (--controllers=*,bootstrapsigner)', () => {
  // bootstrap token authentication is off here: the Secrets are only for the controller
  const s = useServer({ args: ['--controllers=*,bootstrapsigner'] });
  const clusterInfo = async (): Promise<{ data: Record<string, string>; rv: string }> => {
    const r = await s.request('GET', CLUSTER_INFO);
    assert.equal(r.status, 200, r.text);
    return { data: r.json.data, rv: r.json.metadata.resourceVersion };
  };
  const signed = (id: string) => async () => Boolean((await clusterInfo()).data[`jws-kubeconfig-${id}`]);

  it('without --enable-bootstrap-token-auth a bootstrap token is 401', async () => {
    const t = newToken();
    await createTokenSecret(s, t);
    await assertUnauthorized(s, t.token, 'bootstrap token authentication off');
  });

  it('cluster-info holds the server URL and the CA clients trust, as kubeadm writes it', async () => {
    const { data } = await clusterInfo();
    const config = parseYaml(data.kubeconfig);
    assert.deepEqual(config.clusters, [
      {
        name: '',
        cluster: { server: s.url, 'certificate-authority-data': Buffer.from(s.ca).toString('base64') },
      },
    ]);
    assert.equal(config.kind, 'Config');
  });

  it('each signing token signs cluster-info; the JWS verifies with jose under the secret part', async () => {
    const t = newToken();
    await createTokenSecret(s, t, { 'usage-bootstrap-signing': 'true', expiration: inFuture(3_600_000) });
    const unsigned = newToken();
    await createTokenSecret(s, unsigned, { 'usage-bootstrap-signing': 'false' });
    await eventually(signed(t.id), 'signed');
    const { data } = await clusterInfo();
    assert.equal(data[`jws-kubeconfig-${unsigned.id}`], undefined);

    const detached = data[`jws-kubeconfig-${t.id}`];
    const [header, payload, signature] = detached.split('.');
    assert.equal(payload, '', 'the payload is detached');
    assert.deepEqual(decodeProtectedHeader(detached), { alg: 'HS256', kid: t.id });
    const jws = `${header}.${Buffer.from(data.kubeconfig).toString('base64url')}.${signature}`;
    const verified = await compactVerify(jws, new TextEncoder().encode(t.secret), { algorithms: ['HS256'] });
    assert.equal(new TextDecoder().decode(verified.payload), data.kubeconfig);
    // the key is the secret part (kube's signer, kubeadm join), not the whole token
    await assert.rejects(compactVerify(jws, new TextEncoder().encode(t.token), { algorithms: ['HS256'] }));
  });

  it('signatures stay as they are while nothing changes (no write loop)', async () => {
    const before = await clusterInfo();
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal((await clusterInfo()).rv, before.rv);
  });

  it('a signature goes when its token is deleted, and when it expires (with no tokencleaner running)', async () => {
    const deleted = newToken();
    await createTokenSecret(s, deleted, { 'usage-bootstrap-signing': 'true' });
    const expiring = newToken();
    await createTokenSecret(s, expiring, { 'usage-bootstrap-signing': 'true', expiration: inFuture(2000) });
    await eventually(signed(deleted.id), 'signed by the token to delete');
    await eventually(signed(expiring.id), 'signed by the expiring token');

    assert.equal((await s.request('DELETE', `${SECRETS}/bootstrap-token-${deleted.id}`)).status, 200);
    await eventually(async () => !(await signed(deleted.id)()), 'signature of the deleted token removed');
    await eventually(
      async () => !(await signed(expiring.id)()),
      'signature of the expired token removed',
      6000,
    );
    // the expired Secret is still there: its signature went because it expired
    assert.equal((await s.request('GET', `${SECRETS}/bootstrap-token-${expiring.id}`)).status, 200);
  });
});

describe('tokencleaner (--controllers=tokencleaner)', () => {
  const s = useServer({ args: ['--controllers=tokencleaner'] });
  const secretStatus = async (t: Token) =>
    (await s.request('GET', `${SECRETS}/bootstrap-token-${t.id}`)).status;

  it('deletes an expired token Secret at its expiration, and only such Secrets', async () => {
    const soon = newToken();
    const expiration = inFuture(3000);
    await createTokenSecret(s, soon, { expiration });
    const never = newToken();
    await createTokenSecret(s, never);
    const opaque = newToken();
    await createTokenSecret(s, opaque, { expiration: '2020-01-01T00:00:00Z' }, { type: 'Opaque' });
    const past = newToken();
    await createTokenSecret(s, past, { expiration: '2020-01-01T00:00:00Z' });

    await eventually(
      async () => (await secretStatus(past)) === 404,
      'an expired Secret deleted at once',
      5000,
    );
    assert.equal(await secretStatus(soon), 200, 'deleted before its expiration');
    // at its expiration, not at a later sweep: each token waits for its own expiry
    await eventually(async () => (await secretStatus(soon)) === 404, 'deleted at expiration', 5000);
    assert.ok(Date.now() >= Date.parse(expiration));
    assert.equal(await secretStatus(never), 200);
    assert.equal(await secretStatus(opaque), 200);
  });

  it('bootstrapsigner does not run unless named: no cluster-info', async () => {
    assert.equal((await s.request('GET', CLUSTER_INFO)).status, 404);
  });
});
