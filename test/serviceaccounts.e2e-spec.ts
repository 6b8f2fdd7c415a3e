/**
 * Service accounts against the real server and real kubectl 1.32: `kubectl create token` gives a token that
 * authenticates as the account (read back with `kubectl auth whoami`), whose claims jose verifies against the server's published key set; the token dies
 * with its account or bound Secret and at its expiry; the controllers keep a `default` account and the
 * `kube-root-ca.crt` ConfigMap in every namespace and fill legacy token Secrets.
 */
import assert from 'node:assert/strict';
import { createHash, createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
} from 'jose';
import { kubectl } from './support/kubectl.js';
import { useServer, type UsedServer } from './support/use-server.js';
import { grant, serviceAccount } from './support/rbac.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const UNAUTHORIZED = 'error: You must be logged in to the server (Unauthorized)';

function tools(s: UsedServer) {
  const run = (args: string[], o: { token?: string; input?: string } = {}) =>
    kubectl([...(o.token ? [`--token=${o.token}`] : []), ...args], {
      kubeconfig: s.kubeconfig,
      input: o.input,
      timeoutMs: 60_000,
    });
  const ok = async (args: string[], o: { token?: string; input?: string } = {}) => {
    const r = await run(args, o);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };
  const refused = async (token: string) => {
    const r = await run(['get', 'namespaces', '-o', 'name'], { token });
    assert.notEqual(r.code, 0, r.stdout);
    assert.equal(r.stderr.trim(), UNAUTHORIZED);
  };
  /** The user a credential authenticates as, as `kubectl auth whoami` shows it (a SelfSubjectReview). */
  const whoami = async (token: string) => {
    const out = await ok(['auth', 'whoami', '-o', 'json'], { token });
    return JSON.parse(out).status.userInfo as Record<string, unknown>;
  };
  /** Polls until `check` passes (controllers act on watch events, not at once). */
  const eventually = async (check: () => Promise<void>, ms = 15_000) => {
    const until = Date.now() + ms;
    for (;;) {
      try {
        return await check();
      } catch (e) {
        if (Date.now() > until) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };
  return { run, ok, refused, whoami, eventually };
}

/** The server's published key set, fetched as a relying party would: from the discovery document. */
async function publishedKeys(s: UsedServer): Promise<JSONWebKeySet> {
  const config = await s.request('GET', '/.well-known/openid-configuration');
  const jwks = await s.request('GET', new URL(config.json.jwks_uri as string).pathname);
  assert.equal(jwks.status, 200, jwks.text);
  return jwks.json as JSONWebKeySet;
}

describe('service-account tokens with kubectl create token', () => {
  const s = useServer();
  const { run, ok, refused, whoami, eventually } = tools(s);

  it('a token of `default` authenticates as that account: name, uid, groups, credential id', async () => {
    await ok(['create', 'namespace', 'tokens']);
    await eventually(async () => void (await ok(['get', 'serviceaccount', 'default', '-n', 'tokens'])));
    const uid = await ok(['get', 'sa', 'default', '-n', 'tokens', '-o', 'jsonpath={.metadata.uid}']);
    const token = (await ok(['create', 'token', 'default', '-n', 'tokens'])).trim();
    assert.deepEqual(await whoami(token), {
      username: 'system:serviceaccount:tokens:default',
      uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:tokens', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${decodeJwt(token).jti}`] },
    });
    // the account may read its namespace once a ServiceAccount subject is granted that
    await grant(
      s,
      'tokens-default',
      [serviceAccount('tokens', 'default')],
      [{ verbs: ['get'], apiGroups: [''], resources: ['namespaces'] }],
    );
    assert.equal(
      (await ok(['get', 'namespace', 'tokens', '-o', 'name'], { token })).trim(),
      'namespace/tokens',
    );
  });

  it("carries kube's claims, verified by jose against the server's published key set", async () => {
    await ok(['create', 'serviceaccount', 'claims', '-n', 'tokens']);
    const uid = await ok(['get', 'sa', 'claims', '-n', 'tokens', '-o', 'jsonpath={.metadata.uid}']);
    const token = (await ok(['create', 'token', 'claims', '-n', 'tokens'])).trim();
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(await publishedKeys(s)), {
      issuer: ISSUER,
      audience: ISSUER,
      subject: 'system:serviceaccount:tokens:claims',
      algorithms: ['ES256'],
    });
    assert.deepEqual(payload['kubernetes.io'], {
      namespace: 'tokens',
      serviceaccount: { name: 'claims', uid },
    });
    assert.equal(payload.exp! - payload.iat!, 3600, 'an hour by default');
    assert.equal(payload.nbf, payload.iat);
    assert.match(payload.jti!, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.deepEqual(Object.keys(payload), [
      'aud',
      'exp',
      'iat',
      'iss',
      'jti',
      'kubernetes.io',
      'nbf',
      'sub',
    ]);
    // kube's key id: base64url SHA-256 of the DER public key (here the serving key, the default signer)
    const servingKey = await readFile(path.join(s.dataDir, 'pki', 'apiserver.key'), 'utf8');
    const der = createPublicKey(createPrivateKey(servingKey)).export({ type: 'spki', format: 'der' });
    assert.deepEqual(protectedHeader, {
      alg: 'ES256',
      kid: createHash('sha256').update(der).digest('base64url'),
    });
  });

  it('--audience and --duration are honoured; a token for another audience does not authenticate here', async () => {
    const token = (
      await ok(['create', 'token', 'default', '-n', 'tokens', '--audience=vault', '--duration=20m'])
    ).trim();
    const { payload } = await jwtVerify(token, createLocalJWKSet(await publishedKeys(s)), {
      audience: 'vault',
    });
    assert.deepEqual(payload.aud, ['vault']);
    assert.equal(payload.exp! - payload.iat!, 1200);
    await refused(token);
  });

  it('the discovery documents are served as kube serves them, to authenticated users only', async () => {
    const config = await s.request('GET', '/.well-known/openid-configuration');
    assert.equal(config.status, 200);
    assert.equal(config.headers['content-type'], 'application/json');
    assert.equal(config.headers['cache-control'], 'public, max-age=3600');
    assert.deepEqual(config.json, {
      issuer: ISSUER,
      jwks_uri: `${s.url}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
    const jwks = await s.request('GET', '/openid/v1/jwks');
    assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
    assert.deepEqual(
      (jwks.json as JSONWebKeySet).keys.map((k) => [k.kty, k.crv, k.use, k.alg]),
      [['EC', 'P-256', 'sig', 'ES256']],
    );
    const anonymous = await s.request('GET', '/openid/v1/jwks', { token: null });
    assert.equal(anonymous.status, 403);
    assert.equal(
      anonymous.json.message,
      'forbidden: User "system:anonymous" cannot get path "/openid/v1/jwks"',
    );
  });

  it('a token of a deleted account is refused at once, also once the account is made again', async () => {
    await ok(['create', 'serviceaccount', 'robot', '-n', 'tokens']);
    const token = (await ok(['create', 'token', 'robot', '-n', 'tokens'])).trim();
    assert.equal((await whoami(token)).username, 'system:serviceaccount:tokens:robot');
    await ok(['delete', 'serviceaccount', 'robot', '-n', 'tokens']);
    await refused(token);
    await ok(['create', 'serviceaccount', 'robot', '-n', 'tokens']);
    await refused(token);
  });

  it('a token bound to a Secret names it, and dies with it', async () => {
    await ok(['create', 'secret', 'generic', 'holder', '-n', 'tokens', '--from-literal=a=b']);
    const secretUid = await ok(['get', 'secret', 'holder', '-n', 'tokens', '-o', 'jsonpath={.metadata.uid}']);
    const token = (
      await ok([
        'create',
        'token',
        'default',
        '-n',
        'tokens',
        '--bound-object-kind=Secret',
        '--bound-object-name=holder',
      ])
    ).trim();
    const { payload } = await jwtVerify(token, createLocalJWKSet(await publishedKeys(s)), {
      audience: ISSUER,
    });
    assert.deepEqual((payload['kubernetes.io'] as Record<string, unknown>).secret, {
      name: 'holder',
      uid: secretUid,
    });
    assert.equal((await whoami(token)).username, 'system:serviceaccount:tokens:default');
    await ok(['delete', 'secret', 'holder', '-n', 'tokens']);
    await refused(token);
  });

  it('an expired token is refused, while the same token unexpired authenticates', async () => {
    // signed here, with the server's signing key (the serving key in its data dir), by jose
    const pem = await readFile(path.join(s.dataDir, 'pki', 'apiserver.key'), 'utf8');
    const key = createPrivateKey(pem);
    const kid = createHash('sha256')
      .update(createPublicKey(key).export({ type: 'spki', format: 'der' }))
      .digest('base64url');
    const uid = await ok(['get', 'sa', 'default', '-n', 'tokens', '-o', 'jsonpath={.metadata.uid}']);
    const forge = (issuedAt: number, lifetime: number) =>
      new SignJWT({ 'kubernetes.io': { namespace: 'tokens', serviceaccount: { name: 'default', uid } } })
        .setProtectedHeader({ alg: 'ES256', kid })
        .setIssuer(ISSUER)
        .setAudience([ISSUER])
        .setSubject('system:serviceaccount:tokens:default')
        .setIssuedAt(issuedAt)
        .setNotBefore(issuedAt)
        .setExpirationTime(issuedAt + lifetime)
        .setJti(randomUUID())
        .sign(key);
    const now = Math.floor(Date.now() / 1000);
    assert.equal(
      (await whoami(await forge(now - 60, 3600))).username,
      'system:serviceaccount:tokens:default',
    );
    // expired two minutes ago: past kube's minute of leeway
    await refused(await forge(now - 3600 - 120, 3600));
  });

  it("refuses what kube refuses, in kube's words", async () => {
    const short = await run(['create', 'token', 'default', '-n', 'tokens', '--duration=1m']);
    assert.equal(
      short.stderr.trim(),
      'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    const ghost = await run(['create', 'token', 'ghost', '-n', 'tokens']);
    assert.equal(ghost.stderr.trim(), 'error: failed to create token: serviceaccounts "ghost" not found');
    const unbound = await run([
      'create',
      'token',
      'default',
      '-n',
      'tokens',
      '--bound-object-kind=Secret',
      '--bound-object-name=nope',
    ]);
    assert.equal(unbound.stderr.trim(), 'error: failed to create token: secrets "nope" not found');
    const get = await s.request('GET', '/api/v1/namespaces/tokens/serviceaccounts/default/token');
    assert.equal(get.status, 405);
    assert.equal(get.json.reason, 'MethodNotAllowed');
    const configMap = await s.request('POST', '/api/v1/namespaces/tokens/serviceaccounts/default/token', {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } },
      },
    });
    assert.equal(configMap.status, 400);
    assert.equal(configMap.json.message, 'cannot bind token to object of type /v1, Kind=ConfigMap'); // client-go's kubelet asks in Protobuf: the answer is a TokenRequest message
    const protobuf = await s.request('POST', '/api/v1/namespaces/tokens/serviceaccounts/default/token', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
      headers: { accept: 'application/vnd.kubernetes.protobuf' },
    });
    assert.equal(protobuf.status, 201);
    assert.equal(protobuf.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    assert.ok(protobuf.text.includes('TokenRequest'), 'the envelope names the kind');
  });

  it('discovery lists serviceaccounts/token as kube does', async () => {
    const v1 = await s.request('GET', '/api/v1');
    const token = (v1.json.resources as Record<string, unknown>[]).find(
      (r) => r.name === 'serviceaccounts/token',
    );
    assert.deepEqual(token, {
      name: 'serviceaccounts/token',
      singularName: '',
      namespaced: true,
      group: 'authentication.k8s.io',
      version: 'v1',
      kind: 'TokenRequest',
      verbs: ['create'],
    });
  });
});

describe('service-account controllers', () => {
  const s = useServer();
  const { ok, refused, whoami, eventually } = tools(s);

  it('every namespace gets a `default` ServiceAccount, made again when deleted', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease'])
      await eventually(async () => void (await ok(['get', 'sa', 'default', '-n', ns])));
    await ok(['create', 'namespace', 'fresh']);
    await eventually(async () => void (await ok(['get', 'sa', 'default', '-n', 'fresh'])));
    const before = await ok(['get', 'sa', 'default', '-n', 'fresh', '-o', 'jsonpath={.metadata.uid}']);
    await ok(['delete', 'sa', 'default', '-n', 'fresh']);
    await eventually(async () => {
      const after = await ok(['get', 'sa', 'default', '-n', 'fresh', '-o', 'jsonpath={.metadata.uid}']);
      assert.notEqual(after, before);
    });
  });

  it('every namespace gets kube-root-ca.crt with the CA clients trust, put back when edited or deleted', async () => {
    const caOf = async (ns: string) =>
      JSON.parse(await ok(['get', 'configmap', 'kube-root-ca.crt', '-n', ns, '-o', 'json'])) as {
        data: Record<string, string>;
        metadata: { annotations: Record<string, string> };
      };
    await ok(['create', 'namespace', 'ca-check']);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'ca-check']) {
      await eventually(async () => {
        const cm = await caOf(ns);
        assert.deepEqual(cm.data, { 'ca.crt': s.ca });
        assert.match(cm.metadata.annotations['kubernetes.io/description'], /^Contains a CA bundle/);
      });
    }
    await ok([
      'patch',
      'configmap',
      'kube-root-ca.crt',
      '-n',
      'ca-check',
      '-p',
      '{"data":{"ca.crt":"forged","extra":"x"}}',
    ]);
    await eventually(async () => assert.deepEqual((await caOf('ca-check')).data, { 'ca.crt': s.ca }));
    await ok(['delete', 'configmap', 'kube-root-ca.crt', '-n', 'ca-check']);
    await eventually(async () => assert.deepEqual((await caOf('ca-check')).data, { 'ca.crt': s.ca }));
  });

  it('fills a legacy token Secret: token, ca.crt, namespace, the account uid; the token authenticates', async () => {
    await ok(['create', 'namespace', 'legacy']);
    await ok(['create', 'serviceaccount', 'builder', '-n', 'legacy']);
    const uid = await ok(['get', 'sa', 'builder', '-n', 'legacy', '-o', 'jsonpath={.metadata.uid}']);
    const manifest = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: builder-token',
      '  namespace: legacy',
      '  annotations:',
      '    kubernetes.io/service-account.name: builder',
      'type: kubernetes.io/service-account-token',
      '',
    ].join('\n');
    await ok(['apply', '-f', '-'], { input: manifest });
    let secret: { data: Record<string, string>; metadata: { annotations: Record<string, string> } };
    await eventually(async () => {
      secret = JSON.parse(await ok(['get', 'secret', 'builder-token', '-n', 'legacy', '-o', 'json']));
      assert.ok(secret.data?.token, 'token filled');
    });
    const text = (k: string) => Buffer.from(secret!.data[k], 'base64').toString();
    assert.equal(text('ca.crt'), s.ca);
    assert.equal(text('namespace'), 'legacy');
    assert.equal(secret!.metadata.annotations['kubernetes.io/service-account.uid'], uid);
    const token = text('token');
    // a legacy JWT, as kube's token controller signs it
    assert.deepEqual(decodeProtectedHeader(token).alg, 'ES256');
    const { payload } = await jwtVerify(token, createLocalJWKSet(await publishedKeys(s)), {
      issuer: 'kubernetes/serviceaccount',
    });
    assert.deepEqual(payload, {
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'legacy',
      'kubernetes.io/serviceaccount/secret.name': 'builder-token',
      'kubernetes.io/serviceaccount/service-account.name': 'builder',
      'kubernetes.io/serviceaccount/service-account.uid': uid,
      sub: 'system:serviceaccount:legacy:builder',
    });
    assert.deepEqual(await whoami(token), {
      username: 'system:serviceaccount:legacy:builder',
      uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:legacy', 'system:authenticated'],
    });
    // v1.32: no Secret is made per account any more
    assert.equal((await ok(['get', 'secrets', '-n', 'legacy', '-o', 'name'])).trim(), 'secret/builder-token');
    await ok(['delete', 'secret', 'builder-token', '-n', 'legacy']);
    await refused(token);
  });

  it("deletes the token Secrets of an account that is deleted, and one whose account doesn't exist", async () => {
    await ok(['create', 'serviceaccount', 'doomed', '-n', 'legacy']);
    const secret = (name: string, account: string) =>
      [
        'apiVersion: v1',
        'kind: Secret',
        'metadata:',
        `  name: ${name}`,
        '  namespace: legacy',
        '  annotations:',
        `    kubernetes.io/service-account.name: ${account}`,
        'type: kubernetes.io/service-account-token',
        '',
      ].join('\n');
    await ok(['apply', '-f', '-'], { input: secret('doomed-token', 'doomed') });
    await eventually(async () => {
      const data = await ok([
        'get',
        'secret',
        'doomed-token',
        '-n',
        'legacy',
        '-o',
        'jsonpath={.data.token}',
      ]);
      assert.ok(data);
    });
    await ok(['delete', 'serviceaccount', 'doomed', '-n', 'legacy']);
    await eventually(async () => {
      const names = await ok(['get', 'secrets', '-n', 'legacy', '-o', 'name']);
      assert.ok(!names.includes('doomed-token'), names);
    });
    await ok(['apply', '-f', '-'], { input: secret('orphan-token', 'nobody') });
    await eventually(async () => {
      const names = await ok(['get', 'secrets', '-n', 'legacy', '-o', 'name']);
      assert.ok(!names.includes('orphan-token'), names);
    });
  });
});
