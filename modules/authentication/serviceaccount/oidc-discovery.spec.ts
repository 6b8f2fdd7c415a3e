/**
 * Issuer discovery documents as kube writes them, and a key set that jose (not our code) verifies our tokens
 * against.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { TokenIssuer } from './issuer.js';
import { privateKeyFromPem, publicKeysFromPem } from './keys.js';
import { discoverableIssuer, OpenIdDiscovery } from './oidc-discovery.js';

const ecPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
  type: 'sec1',
  format: 'pem',
}) as string;
const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
  type: 'spki',
  format: 'pem',
}) as string;
const keys = publicKeysFromPem(ecPem + rsaPem);
const ISSUER = 'https://kubernetes.default.svc.cluster.local';

describe('OpenIdDiscovery', () => {
  const discovery = new OpenIdDiscovery(ISSUER, undefined, keys);

  it("writes kube's provider configuration, the key set on this server's address by default", () => {
    assert.equal(
      discovery.configuration('127.0.0.1:6443'),
      JSON.stringify({
        issuer: ISSUER,
        jwks_uri: 'https://127.0.0.1:6443/openid/v1/jwks',
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256', 'RS256'],
      }),
    );
    const own = new OpenIdDiscovery(ISSUER, 'https://keys.example.com/jwks', keys);
    assert.equal(JSON.parse(own.configuration('x:1')).jwks_uri, 'https://keys.example.com/jwks');
  });

  it("lists each public key with kube's key id, use and algorithm, in go-jose's field order", () => {
    const set = JSON.parse(discovery.jwks()) as { keys: Record<string, string>[] };
    assert.deepEqual(Object.keys(set.keys[0]), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    assert.deepEqual(Object.keys(set.keys[1]), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
    assert.deepEqual(
      set.keys.map((k) => [k.kid, k.alg, k.use]),
      keys.map((k) => [k.kid, k.alg, 'sig']),
    );
    assert.ok(!discovery.jwks().includes('"d"'), 'no private part');
  });

  it('verifies our tokens through jose', async () => {
    const issuer = new TokenIssuer({
      key: privateKeyFromPem(ecPem),
      issuers: [ISSUER],
      apiAudiences: [ISSUER],
      maxExpirationSeconds: 0,
    });
    const { token } = await issuer.bound({
      namespace: 'ns',
      serviceAccount: { name: 'sa', uid: 'u' },
      audiences: ['vault'],
      expirationSeconds: 600,
    });
    const jwks = createLocalJWKSet(JSON.parse(discovery.jwks()));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: ISSUER, audience: 'vault' });
    assert.equal(payload.sub, 'system:serviceaccount:ns:sa');
    assert.equal(protectedHeader.kid, keys[0].kid);
  });

  it('only an https issuer without query or fragment is discoverable (as kube)', () => {
    assert.equal(discoverableIssuer(ISSUER), true);
    for (const issuer of ['kubernetes/serviceaccount', 'http://x', 'https://x?a=b', 'https://x#f', 'api'])
      assert.equal(discoverableIssuer(issuer), false, issuer);
  });
});
