/**
 * Bootstrap token Secrets by kube's rules: each rule that a Secret breaks keeps its token from being a user
 * (and from signing), whatever else the Secret says.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/index.js';
import { bootstrapGroups, bootstrapTokenUser, signingToken, tokenExpiry } from './bootstrap-secret.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const ID = 'abcdef';
const SECRET = '0123456789abcdef';

/** a Secret as stored (data base64-encoded); `data` entries set to undefined are left out */
function tokenSecret(
  data: Record<string, string | undefined> = {},
  meta: Partial<KubeObject['metadata']> = {},
  type = 'bootstrap.kubernetes.io/token',
): KubeObject {
  const plain: Record<string, string | undefined> = {
    'token-id': ID,
    'token-secret': SECRET,
    'usage-bootstrap-authentication': 'true',
    'usage-bootstrap-signing': 'true',
    ...data,
  };
  const encoded: Record<string, string> = {};
  for (const [k, v] of Object.entries(plain))
    if (v !== undefined) encoded[k] = Buffer.from(v).toString('base64');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${ID}`, namespace: 'kube-system', uid: 'u1', ...meta },
    type,
    data: encoded,
  };
}

const userOf = (secret: KubeObject | undefined, given = SECRET) =>
  bootstrapTokenUser(secret, ID, (stored) => stored === given, NOW);

describe('bootstrapTokenUser', () => {
  it('a valid token is system:bootstrap:<id> in system:bootstrappers, its extra groups and system:authenticated', () => {
    assert.deepEqual(userOf(tokenSecret()), {
      name: 'system:bootstrap:abcdef',
      uid: '',
      groups: ['system:bootstrappers', 'system:authenticated'],
    });
    const extra = 'system:bootstrappers:worker,system:bootstrappers:a:b-c,system:bootstrappers:worker';
    assert.deepEqual(userOf(tokenSecret({ 'auth-extra-groups': extra }))?.groups, [
      'system:bootstrappers',
      'system:bootstrappers:a:b-c',
      'system:bootstrappers:worker',
      'system:authenticated',
    ]);
  });

  it('an expiration still ahead, in any RFC 3339 form, lets the token in', () => {
    for (const expiration of [
      '2030-01-01T00:00:01Z',
      '2030-01-01T01:00:00+00:30',
      '2031-06-01T00:00:00.5Z',
    ]) {
      assert.ok(userOf(tokenSecret({ expiration })), expiration);
    }
  });

  const refused: [string, KubeObject | undefined, string?][] = [
    ['no Secret', undefined],
    ['a Secret being deleted', tokenSecret({}, { deletionTimestamp: '2029-12-31T00:00:00Z' })],
    ['another type', tokenSecret({}, {}, 'Opaque')],
    ['no data', { ...tokenSecret(), data: undefined }],
    ['a wrong secret part', tokenSecret(), 'fedcba9876543210'],
    ['no token-secret', tokenSecret({ 'token-secret': undefined })],
    ['a token-id that is not the id', tokenSecret({ 'token-id': 'zzzzzz' })],
    ['no token-id', tokenSecret({ 'token-id': undefined })],
    ['an expiration passed', tokenSecret({ expiration: '2029-12-31T23:59:59Z' })],
    ['an expiration now', tokenSecret({ expiration: '2030-01-01T00:00:00Z' })],
    ['an expiration passed in another zone', tokenSecret({ expiration: '2030-01-01T00:30:00+01:00' })],
    ['an expiration that is not RFC 3339', tokenSecret({ expiration: 'tomorrow' })],
    ['an expiration without a zone', tokenSecret({ expiration: '2031-01-01T00:00:00' })],
    ['usage-bootstrap-authentication missing', tokenSecret({ 'usage-bootstrap-authentication': undefined })],
    ['usage-bootstrap-authentication "True"', tokenSecret({ 'usage-bootstrap-authentication': 'True' })],
    ['usage-bootstrap-authentication "1"', tokenSecret({ 'usage-bootstrap-authentication': '1' })],
    ['an extra group outside system:bootstrappers:', tokenSecret({ 'auth-extra-groups': 'system:masters' })],
    [
      'one bad extra group among good ones',
      tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:ok,system:masters' }),
    ],
    [
      'an extra group with a space',
      tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:a, system:bootstrappers:b' }),
    ],
    ['an extra group ending in ":"', tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:a:' })],
    ['an extra group in capitals', tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:Workers' })],
    ['the bare prefix as extra group', tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:' })],
    ['an empty item in the extra groups', tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:a,' })],
    [
      'an extra group too long',
      tokenSecret({ 'auth-extra-groups': `system:bootstrappers:${'a'.repeat(257)}` }),
    ],
  ];
  for (const [what, secret, given] of refused) {
    it(`refuses ${what}`, () => assert.equal(userOf(secret, given), undefined));
  }

  it('takes the longest extra group the pattern allows', () => {
    const longest = `system:bootstrappers:${'a'.repeat(256)}`;
    assert.deepEqual(bootstrapGroups(tokenSecret({ 'auth-extra-groups': longest })), [
      'system:bootstrappers',
      longest,
    ]);
  });
});

describe('tokenExpiry', () => {
  it('no expiration never expires; the time left is counted from now', () => {
    assert.deepEqual(tokenExpiry(tokenSecret(), NOW), { expired: false });
    assert.deepEqual(tokenExpiry(tokenSecret({ expiration: '2030-01-01T00:00:02Z' }), NOW), {
      expired: false,
      remainingMs: 2000,
    });
    assert.deepEqual(tokenExpiry(tokenSecret({ expiration: 'soon' }), NOW), { expired: true });
  });
});

describe('signingToken', () => {
  it('gives the id and secret part of a token that may sign', () => {
    assert.deepEqual(signingToken(tokenSecret(), NOW), { id: ID, secret: SECRET });
  });

  const refused: [string, KubeObject][] = [
    ['usage-bootstrap-signing missing', tokenSecret({ 'usage-bootstrap-signing': undefined })],
    ['usage-bootstrap-signing "yes"', tokenSecret({ 'usage-bootstrap-signing': 'yes' })],
    ['an expired token', tokenSecret({ expiration: '2029-01-01T00:00:00Z' })],
    ['a token-id that is not the name', tokenSecret({ 'token-id': 'zzzzzz' })],
    ['a name that is not bootstrap-token-<id>', tokenSecret({}, { name: 'my-token' })],
    ['no token-secret', tokenSecret({ 'token-secret': '' })],
    ['another namespace', tokenSecret({}, { namespace: 'default' })],
    ['another type', tokenSecret({}, {}, 'Opaque')],
    ['a Secret being deleted', tokenSecret({}, { deletionTimestamp: '2029-12-31T00:00:00Z' })],
  ];
  for (const [what, secret] of refused) {
    it(`does not sign with ${what}`, () => assert.equal(signingToken(secret, NOW), undefined));
  }

  it('signs without usage-bootstrap-authentication (the usages are independent)', () => {
    assert.ok(signingToken(tokenSecret({ 'usage-bootstrap-authentication': undefined }), NOW));
  });
});
