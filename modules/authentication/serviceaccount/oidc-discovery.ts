/**
 * OpenID Connect discovery of the token issuer, as kube serves it: /.well-known/openid-configuration names the
 * issuer and its key set, /openid/v1/jwks holds the public verification keys, so that others can check
 * service-account tokens without asking this server. Only an https issuer URL can be discovered; with any
 * other issuer kube serves neither document, and neither do we.
 */
import type { VerificationKey } from './keys.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
/** kube's: the keys are static for the life of the process (GetCacheAgeMaxSeconds) */
export const OPENID_CACHE_CONTROL = 'public, max-age=3600';
export const JWKS_CONTENT_TYPE = 'application/jwk-set+json';

/** A public key as go-jose writes a JWK (its field order), with kube's use and key id. */
function jwk(key: VerificationKey): Record<string, unknown> {
  const k = key.publicKey.export({ format: 'jwk' });
  return Object.fromEntries(
    Object.entries({
      use: 'sig',
      kty: k.kty,
      kid: key.kid,
      crv: k.crv,
      alg: key.alg,
      x: k.x,
      y: k.y,
      n: k.n,
      e: k.e,
    }).filter(([, v]) => v !== undefined),
  );
}

/** kube's checks of the issuer before it serves discovery: an https URL without query or fragment. */
export function discoverableIssuer(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return url.protocol === 'https:' && !url.search && !url.hash;
  } catch {
    return false;
  }
}

export class OpenIdDiscovery {
  private readonly keySet: string;
  private readonly algorithms: string[];
  private configurationFor?: { address: string; json: string };

  /**
   * `jwksUri`: --service-account-jwks-uri; unset, the key set's URL on this server's own address (kube: its
   * external address).
   */
  constructor(
    readonly issuer: string,
    private readonly jwksUri: string | undefined,
    keys: readonly VerificationKey[],
  ) {
    this.keySet = JSON.stringify({ keys: keys.map(jwk) });
    this.algorithms = [...new Set(keys.map((k) => k.alg))].sort();
  }

  /** The provider configuration, for a server reached at `address` (host:port). */
  configuration(address: string): string {
    if (this.configurationFor?.address !== address) {
      const json = JSON.stringify({
        issuer: this.issuer,
        jwks_uri: this.jwksUri ?? `https://${address}${JWKS_PATH}`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: this.algorithms,
      });
      this.configurationFor = { address, json };
    }
    return this.configurationFor.json;
  }

  jwks(): string {
    return this.keySet;
  }
}
