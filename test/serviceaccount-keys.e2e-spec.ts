/**
 * The --service-account-* flags against the real server: an RSA signing key of its own, verification keys
 * from several files (an old key keeps its tokens valid), several issuers (the first issues, all are
 * accepted), a cap on token lifetimes (kube's warning); and start-up errors that name the flags.
 */
import assert from 'node:assert/strict';
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  type KeyObject,
} from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { kubectl } from './support/kubectl.js';
import { serverExit } from './support/server.js';
import { useServer } from './support/use-server.js';

const kidOf = (k: KeyObject) =>
  createHash('sha256')
    .update(k.export({ type: 'spki', format: 'der' }))
    .digest('base64url');

const current = generateKeyPairSync('rsa', { modulusLength: 2048 });
const old = generateKeyPairSync('ec', { namedCurve: 'P-256' });

async function keyFiles() {
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-sa-keys-'));
  const file = async (name: string, pem: string) => {
    const p = path.join(dir, name);
    await writeFile(p, pem, { mode: 0o600 });
    return p;
  };
  return {
    signing: await file('sa.key', current.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string),
    current: await file('sa.pub', current.publicKey.export({ type: 'spki', format: 'pem' }) as string),
    old: await file('old.key', old.privateKey.export({ type: 'sec1', format: 'pem' }) as string),
  };
}

describe('--service-account-signing-key-file, -key-file, -issuer, -max-token-expiration', () => {
  const s = useServer(async () => {
    const f = await keyFiles();
    return {
      args: [
        `--service-account-signing-key-file=${f.signing}`,
        `--service-account-key-file=${f.current}`,
        `--service-account-key-file=${f.old}`,
        '--service-account-issuer=https://issuer.example.com',
        '--service-account-issuer=https://old-issuer.example.com',
        '--service-account-max-token-expiration=1h',
      ],
    };
  });
  const run = (args: string[], token?: string) =>
    kubectl([...(token ? [`--token=${token}`] : []), ...args], {
      kubeconfig: s.kubeconfig,
      timeoutMs: 60_000,
    });

  it('signs RS256 with its key as the first issuer, caps the lifetime with a warning', async () => {
    const r = await run(['create', 'token', 'default', '-n', 'default', '--duration=2h']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.trim(), 'Warning: requested expiration of 7200 seconds shortened to 3600 seconds');
    const token = r.stdout.trim();
    const jwks = (await s.request('GET', '/openid/v1/jwks')).json as JSONWebKeySet;
    assert.deepEqual(
      jwks.keys.map((k) => [k.kid, k.alg]),
      [
        [kidOf(current.publicKey), 'RS256'],
        [kidOf(old.publicKey), 'ES256'],
      ],
    );
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: 'https://issuer.example.com',
      audience: 'https://issuer.example.com',
    });
    assert.deepEqual(protectedHeader, { alg: 'RS256', kid: kidOf(current.publicKey) });
    assert.equal(payload.exp! - payload.iat!, 3600);
    const config = (await s.request('GET', '/.well-known/openid-configuration')).json;
    assert.equal(config.issuer, 'https://issuer.example.com');
    assert.deepEqual(config.id_token_signing_alg_values_supported, ['ES256', 'RS256']);
  });

  it("accepts a token of the old key and issuer; the api audiences are every issuer's", async () => {
    const uid = (await run(['get', 'sa', 'default', '-n', 'default', '-o', 'jsonpath={.metadata.uid}']))
      .stdout;
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'default', uid } },
    })
      .setProtectedHeader({ alg: 'ES256', kid: kidOf(old.publicKey) })
      .setIssuer('https://old-issuer.example.com')
      .setAudience('https://old-issuer.example.com')
      .setSubject('system:serviceaccount:default:default')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .setJti(randomUUID())
      .sign(old.privateKey);
    const r = await kubectl(
      [`--token=${token}`, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'],
      { kubeconfig: s.kubeconfig },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'system:serviceaccount:default:default');
  });

  it('the serving key no longer verifies tokens: a token it signs is refused', async () => {
    const serving = createPrivateKey(await readFile(path.join(s.dataDir, 'pki', 'apiserver.key'), 'utf8'));
    const uid = (await run(['get', 'sa', 'default', '-n', 'default', '-o', 'jsonpath={.metadata.uid}']))
      .stdout;
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'default', uid } },
    })
      .setProtectedHeader({ alg: 'ES256', kid: kidOf(createPublicKey(serving)) })
      .setIssuer('https://issuer.example.com')
      .setAudience('https://issuer.example.com')
      .setSubject('system:serviceaccount:default:default')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(serving);
    const r = await run(['get', 'namespaces'], token);
    assert.notEqual(r.code, 0, r.stdout);
    assert.equal(r.stderr.trim(), 'error: You must be logged in to the server (Unauthorized)');
  });
});

describe('service-account flags that cannot work stop the server, naming the flags', () => {
  it('each refusal names its flag and file, and holds no key material', async () => {
    const f = await keyFiles();
    const missing = path.join(path.dirname(f.signing), 'missing.key');
    for (const [args, expected] of [
      [
        [`--service-account-key-file=${missing}`],
        `--service-account-key-file "${missing}": cannot read it (ENOENT)`,
      ],
      [
        [`--service-account-signing-key-file=${f.current}`, `--service-account-key-file=${f.current}`],
        `--service-account-signing-key-file "${f.current}": data does not contain a valid RSA or ECDSA private key`,
      ],
      [
        [`--service-account-signing-key-file=${f.signing}`],
        `--service-account-signing-key-file "${f.signing}": its public key is not among the keys of the serving key`,
      ],
      [
        [`--service-account-signing-key-file=${f.signing}`, `--service-account-key-file=${f.old}`],
        `--service-account-signing-key-file "${f.signing}": its public key is not among the keys of --service-account-key-file`,
      ],
      [
        ['--service-account-max-token-expiration=30m'],
        '--service-account-max-token-expiration must be between 1 hour and 2^32 seconds',
      ],
      [
        ['--service-account-issuer=https://exa mple.com'],
        `--service-account-issuer "https://exa mple.com" contained a ':' but was not a valid URL`,
      ],
    ] as const) {
      const { code, output } = await serverExit([...args]);
      assert.notEqual(code, 0, output);
      assert.ok(output.includes(expected), `${args.join(' ')}:\n${output}`);
      assert.ok(!output.includes('BEGIN'), output);
    }
  });
});
