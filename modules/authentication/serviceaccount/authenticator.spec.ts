/**
 * The service-account token authenticator over a map of objects (its port): whose tokens it takes, the user a
 * token is, and every way one stops authenticating (signature, issuer, audience, lifetime, a deleted or
 * recreated account or bound Secret, a legacy token whose Secret changed), each with kube's reason.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { SignJWT } from 'jose';
import type { KubeObject } from '../../api/index.js';
import type { AuthenticationRequest } from '../authenticator.js';
import { CredentialRefused } from '../authenticator.js';
import { ServiceAccountTokenAuthenticator, type ObjectGetter } from './authenticator.js';
import { TokenIssuer } from './issuer.js';
import { privateKeyFromPem, publicKeysFromPem } from './keys.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const pemOf = (k: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
  k.export({ type: 'pkcs8', format: 'pem' }) as string;
const signingPem = pemOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
const otherPem = pemOf(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
const signing = privateKeyFromPem(signingPem);

class Objects {
  readonly byKey = new Map<string, KubeObject>();
  reads = 0;
  put(resource: string, namespace: string, name: string, uid: string, extra: Partial<KubeObject> = {}) {
    const obj = { apiVersion: 'v1', kind: 'X', metadata: { name, namespace, uid }, ...extra } as KubeObject;
    this.byKey.set(`${resource}/${namespace}/${name}`, obj);
    return obj;
  }
  delete(resource: string, namespace: string, name: string) {
    this.byKey.delete(`${resource}/${namespace}/${name}`);
  }
  getter: ObjectGetter = (resource, namespace, name) => {
    this.reads++;
    return this.byKey.get(`${resource}/${namespace}/${name}`);
  };
}

function setup(options: { lookup?: boolean; now?: () => number; apiAudiences?: string[] } = {}) {
  const objects = new Objects();
  objects.put('serviceaccounts', 'team', 'robot', 'uid-robot');
  const authn = new ServiceAccountTokenAuthenticator({
    keys: publicKeysFromPem(signingPem + otherPem),
    issuers: [ISSUER, 'https://old-issuer'],
    apiAudiences: options.apiAudiences ?? [ISSUER],
    lookup: options.lookup ?? true,
    objects: objects.getter,
    now: options.now,
  });
  const issuer = new TokenIssuer({
    key: signing,
    issuers: [ISSUER],
    apiAudiences: [ISSUER],
    maxExpirationSeconds: 0,
  });
  const token = (claims: Partial<Parameters<TokenIssuer['bound']>[0]> = {}, nowMs?: number) =>
    issuer
      .bound(
        {
          namespace: 'team',
          serviceAccount: { name: 'robot', uid: 'uid-robot' },
          audiences: [ISSUER],
          expirationSeconds: 3600,
          ...claims,
        },
        nowMs,
      )
      .then((t) => t.token);
  return { objects, authn, issuer, token };
}

const request = (token: string): AuthenticationRequest => ({
  headers: { authorization: `Bearer ${token}` },
  rawHeaders: [],
  peerCertificates: () => undefined,
});

async function refused(p: Promise<unknown>, why: string | RegExp): Promise<void> {
  const e = await p.then(
    () => assert.fail('expected a 401'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof CredentialRefused, String(e));
  assert.equal(e.code, 401);
  assert.equal(e.message, 'Unauthorized', 'clients see no reason, as from kube');
  if (typeof why === 'string') assert.equal(e.why, why);
  else assert.match(e.why, why);
}

describe('ServiceAccountTokenAuthenticator', () => {
  it("is the account's user, for a bound token of its issuer", async () => {
    const { authn, token } = setup();
    const user = await authn.authenticate(request(await token()));
    assert.equal(user?.name, 'system:serviceaccount:team:robot');
    assert.equal(user?.uid, 'uid-robot');
    assert.deepEqual(user?.groups, [
      'system:serviceaccounts',
      'system:serviceaccounts:team',
      'system:authenticated',
    ]);
    assert.match(user?.extra?.['authentication.kubernetes.io/credential-id'][0] ?? '', /^JTI=[0-9a-f-]{36}$/);
    assert.ok(Object.isFrozen(user) && Object.isFrozen(user?.groups), 'shared by requests: frozen');
  });

  it('leaves tokens that are no JWT of its issuers to the other authenticators', async () => {
    const { authn } = setup();
    const foreign = await new SignJWT({ sub: 'x' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('https://elsewhere')
      .sign(signing.privateKey);
    for (const t of ['opaque-token', 'a.b', foreign, '{"iss":"x"}.a.b'])
      assert.equal(await authn.authenticate(request(t)), undefined, t);
    assert.equal(
      await authn.authenticate({ headers: {}, rawHeaders: [], peerCertificates: () => undefined }),
      undefined,
    );
  });

  it('accepts every configured issuer and any key of the key files', async () => {
    const { authn } = setup();
    const other = privateKeyFromPem(otherPem);
    const t = await new SignJWT({
      'kubernetes.io': { namespace: 'team', serviceaccount: { name: 'robot', uid: 'uid-robot' } },
    })
      .setProtectedHeader({ alg: 'RS256', kid: other.kid })
      .setIssuer('https://old-issuer')
      .setAudience(ISSUER)
      .setSubject('system:serviceaccount:team:robot')
      .setExpirationTime('1h')
      .sign(other.privateKey);
    assert.equal((await authn.authenticate(request(t)))?.name, 'system:serviceaccount:team:robot');
  });

  it('refuses a token signed by no key it has, or under an algorithm its key does not use', async () => {
    const { authn, token } = setup();
    const t = await token();
    const [h, p, s] = t.split('.');
    await refused(authn.authenticate(request(`${h}.${p}.${s.slice(0, -4)}AAAA`)), 'invalid signature');
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(ISSUER)
      .sign(stranger);
    await refused(authn.authenticate(request(forged)), 'invalid signature');
    const unknownKid = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'nope' })
      .setIssuer(ISSUER)
      .sign(stranger);
    await refused(authn.authenticate(request(unknownKid)), 'invalid signature, no keys found');
  });

  it('refuses a token for other audiences', async () => {
    const { authn, token } = setup();
    await refused(
      authn.authenticate(request(await token({ audiences: ['vault'] }))),
      `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]`,
    );
    // a TokenReview for vault finds it, and says so
    const ok = await authn.authenticateToken(await token({ audiences: ['vault'] }), ['vault', 'x']);
    assert.deepEqual(ok?.audiences, ['vault']);
  });

  it('refuses an expired token (past the leeway), also once it was cached', async () => {
    let now = Date.now();
    const { authn, token } = setup({ now: () => now });
    const t = await token({}, now);
    assert.ok(await authn.authenticate(request(t)));
    now += 3600_000 + 61_000;
    await refused(authn.authenticate(request(t)), 'service account token has expired');
  });

  it('checks the account on every request, cached or not: deleted or recreated, the token is dead', async () => {
    const { authn, token, objects } = setup();
    const t = await token();
    assert.ok(await authn.authenticate(request(t)));
    objects.delete('serviceaccounts', 'team', 'robot');
    await refused(authn.authenticate(request(t)), 'serviceaccounts "robot" not found');
    objects.put('serviceaccounts', 'team', 'robot', 'uid-new');
    await refused(
      authn.authenticate(request(t)),
      'service account UID (uid-new) does not match claim (uid-robot)',
    );
  });

  it('an account Terminating for more than the leeway no longer vouches for its tokens', async () => {
    const { authn, token, objects } = setup();
    const t = await token();
    const sa = objects.put('serviceaccounts', 'team', 'robot', 'uid-robot');
    sa.metadata.deletionTimestamp = new Date(Date.now() - 30_000).toISOString();
    assert.ok(await authn.authenticate(request(t)));
    sa.metadata.deletionTimestamp = new Date(Date.now() - 61_000).toISOString();
    await refused(authn.authenticate(request(t)), 'service account team/robot has been deleted');
  });

  it('a token bound to a Secret dies with it, and is not revived by a namesake', async () => {
    const { authn, token, objects } = setup();
    objects.put('secrets', 'team', 'bound', 'uid-bound');
    const t = await token({ secret: { name: 'bound', uid: 'uid-bound' } });
    assert.ok(await authn.authenticate(request(t)));
    objects.delete('secrets', 'team', 'bound');
    await refused(authn.authenticate(request(t)), 'service account token has been invalidated');
    objects.put('secrets', 'team', 'bound', 'uid-again');
    await refused(
      authn.authenticate(request(t)),
      'secret UID (uid-again) does not match service account secret ref claim (uid-bound)',
    );
  });

  it('verifies a signature once per token; the objects are read on every request', async () => {
    const { authn, token, objects } = setup();
    const t = await token();
    const first = await authn.authenticate(request(t));
    const reads = objects.reads;
    const second = await authn.authenticate(request(t));
    assert.equal(second, first, 'the same frozen user: the verified token came from the cache');
    assert.equal(objects.reads, reads + 1);
  });

  describe('legacy tokens (token Secrets)', () => {
    async function legacy(lookup = true) {
      const s = setup({ lookup });
      const t = await s.issuer.legacy('team', { name: 'robot', uid: 'uid-robot' }, 'robot-token');
      const secret = s.objects.put('secrets', 'team', 'robot-token', 'uid-secret', {
        type: 'kubernetes.io/service-account-token',
        data: { token: Buffer.from(t).toString('base64') },
      });
      return { ...s, t, secret };
    }

    it('authenticate while their Secret holds them, without credential id', async () => {
      const { authn, t } = await legacy();
      const user = await authn.authenticate(request(t));
      assert.equal(user?.name, 'system:serviceaccount:team:robot');
      assert.equal(user?.extra, undefined);
    });

    it('die with their Secret or when the Secret holds another token, with lookup on', async () => {
      const { authn, t, objects, secret } = await legacy();
      secret.data = { token: Buffer.from('something else').toString('base64') };
      await refused(authn.authenticate(request(t)), "Token does not match server's copy");
      objects.delete('secrets', 'team', 'robot-token');
      await refused(authn.authenticate(request(t)), 'Token has been invalidated');
    });

    it("are refused once labelled invalid by kube's legacy token cleaner", async () => {
      const { authn, t, secret } = await legacy();
      secret.metadata.labels = { 'kubernetes.io/legacy-token-invalid-since': '2024-01-01' };
      await refused(authn.authenticate(request(t)), /has been marked invalid/);
    });

    it('are not looked up with --service-account-lookup=false', async () => {
      const { authn, t, objects } = await legacy(false);
      objects.delete('secrets', 'team', 'robot-token');
      objects.delete('serviceaccounts', 'team', 'robot');
      assert.equal((await authn.authenticate(request(t)))?.name, 'system:serviceaccount:team:robot');
    });
  });
});
