/**
 * The claims of service-account tokens: what kube writes (sorted keys, the `kubernetes.io` claim, legacy flat
 * claims), how a verified payload reads back, go-jose's time rules with their minute of leeway, and the user
 * a token stands for.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  boundTokenPayload,
  legacyTokenPayload,
  readClaims,
  serviceAccountUser,
  timeProblem,
  type ServiceAccountClaims,
} from './claims.js';

const sa = { name: 'robot', uid: 'uid-robot' };
const bound = {
  issuer: 'https://kubernetes.default.svc.cluster.local',
  namespace: 'team',
  serviceAccount: sa,
  audiences: ['vault', 'api'],
  expirationSeconds: 3600,
  now: 1_700_000_000,
  jti: 'jti-1',
};

describe('boundTokenPayload', () => {
  it("writes kube's claims, keys sorted as Go marshals a map", () => {
    const payload = boundTokenPayload({ ...bound, secret: { name: 's', uid: 'uid-s' } });
    assert.equal(
      JSON.stringify(payload),
      JSON.stringify({
        aud: ['vault', 'api'],
        exp: 1_700_003_600,
        iat: 1_700_000_000,
        iss: 'https://kubernetes.default.svc.cluster.local',
        jti: 'jti-1',
        'kubernetes.io': {
          namespace: 'team',
          secret: { name: 's', uid: 'uid-s' },
          serviceaccount: { name: 'robot', uid: 'uid-robot' },
        },
        nbf: 1_700_000_000,
        sub: 'system:serviceaccount:team:robot',
      }),
    );
  });

  it('names the pod and its node for a pod-bound token, nothing bound otherwise', () => {
    const k = (p: Record<string, unknown>) => Object.keys(p['kubernetes.io'] as object);
    assert.deepEqual(k(boundTokenPayload(bound)), ['namespace', 'serviceaccount']);
    const pod = boundTokenPayload({ ...bound, pod: { name: 'p', uid: 'u' }, node: { name: 'n', uid: 'v' } });
    assert.deepEqual(k(pod), ['namespace', 'node', 'pod', 'serviceaccount']);
  });
});

describe('readClaims', () => {
  it('reads a bound token back', () => {
    const c = readClaims(boundTokenPayload({ ...bound, secret: { name: 's', uid: 'uid-s' } }));
    assert.deepEqual(c, {
      issuer: bound.issuer,
      audiences: ['vault', 'api'],
      exp: 1_700_003_600,
      nbf: 1_700_000_000,
      iat: 1_700_000_000,
      namespace: 'team',
      serviceAccount: sa,
      pod: undefined,
      secret: { name: 's', uid: 'uid-s' },
      node: undefined,
      jti: 'jti-1',
    });
  });

  it('takes a single audience string as a list (RFC 7519)', () => {
    assert.deepEqual(readClaims({ ...boundTokenPayload(bound), aud: 'one' }).audiences, ['one']);
  });

  it('reads a legacy token: no lifetime, no audience, the Secret by name', () => {
    const c = readClaims(legacyTokenPayload('team', sa, 'robot-token'));
    assert.equal(c.issuer, 'kubernetes/serviceaccount');
    assert.deepEqual(c.audiences, []);
    assert.equal(c.exp, undefined);
    assert.equal(c.legacySecret, 'robot-token');
    assert.deepEqual(c.serviceAccount, sa);
  });

  it("refuses a legacy token missing a claim, or whose sub is another account's (kube's messages)", () => {
    const legacy = legacyTokenPayload('team', sa, 'robot-token');
    const without = (key: string) => Object.fromEntries(Object.entries(legacy).filter(([k]) => k !== key));
    for (const [key, message] of [
      ['sub', 'sub claim is missing'],
      ['kubernetes.io/serviceaccount/namespace', 'namespace claim is missing'],
      ['kubernetes.io/serviceaccount/secret.name', 'secretName claim is missing'],
      ['kubernetes.io/serviceaccount/service-account.name', 'serviceAccountName claim is missing'],
      ['kubernetes.io/serviceaccount/service-account.uid', 'serviceAccountUID claim is missing'],
    ]) {
      assert.throws(() => readClaims(without(key)), { message }, key);
    }
    assert.throws(() => readClaims({ ...legacy, sub: 'system:serviceaccount:other:robot' }), {
      message: 'sub claim is invalid',
    });
  });
});

describe('timeProblem', () => {
  const c = readClaims(boundTokenPayload(bound));
  it('allows a minute of clock skew either side, as go-jose does', () => {
    assert.equal(timeProblem(c, bound.now - 60), undefined);
    assert.equal(timeProblem(c, bound.now + 3600 + 60), undefined);
  });
  it("names kube's reasons past that", () => {
    assert.equal(timeProblem(c, bound.now + 3600 + 61), 'service account token has expired');
    const early = { ...c, iat: undefined };
    assert.equal(timeProblem(early, bound.now - 61), 'service account token is not valid yet');
    const future: ServiceAccountClaims = { ...c, nbf: undefined };
    assert.equal(timeProblem(future, bound.now - 61), 'service account token is issued in the future');
  });
  it('a legacy token never expires', () => {
    assert.equal(timeProblem(readClaims(legacyTokenPayload('team', sa, 's')), 4e9), undefined);
  });
});

describe('serviceAccountUser', () => {
  it("is the account's user, uid and groups, with the token's id as its credential", () => {
    assert.deepEqual(serviceAccountUser(readClaims(boundTokenPayload(bound))), {
      name: 'system:serviceaccount:team:robot',
      uid: 'uid-robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': ['JTI=jti-1'] },
    });
  });

  it('names the pod and node of a pod-bound token in extra', () => {
    const c = readClaims(
      boundTokenPayload({ ...bound, pod: { name: 'p', uid: 'pu' }, node: { name: 'n', uid: 'nu' } }),
    );
    assert.deepEqual(serviceAccountUser(c).extra, {
      'authentication.kubernetes.io/pod-name': ['p'],
      'authentication.kubernetes.io/pod-uid': ['pu'],
      'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
      'authentication.kubernetes.io/node-name': ['n'],
      'authentication.kubernetes.io/node-uid': ['nu'],
    });
  });

  it('a legacy token has no extra', () => {
    assert.equal(serviceAccountUser(readClaims(legacyTokenPayload('team', sa, 's'))).extra, undefined);
  });
});
