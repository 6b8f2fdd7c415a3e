/**
 * The token issuer: signs bound tokens (TokenRequest) as the first --service-account-issuer, and legacy
 * tokens (token Secrets) as `kubernetes/serviceaccount`, with the one signing key.
 */
import { randomUUID } from 'node:crypto';
import { boundTokenPayload, legacyTokenPayload, type ObjectRef } from './claims.js';
import { signJwt } from './jwt.js';
import type { SigningKey } from './keys.js';

export interface ServiceAccountIssuerOptions {
  key: SigningKey;
  /** --service-account-issuer: the first signs, all are accepted */
  issuers: string[];
  /** --api-audiences, else the issuers: what a token must be for to authenticate to this server */
  apiAudiences: string[];
  /** --service-account-max-token-expiration in seconds; 0: no cap */
  maxExpirationSeconds: number;
}

export interface BoundToken {
  token: string;
  jti: string;
  /** seconds since the epoch */
  issuedAt: number;
}

export interface BoundTokenClaims {
  namespace: string;
  serviceAccount: ObjectRef;
  audiences: string[];
  expirationSeconds: number;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
}

export class TokenIssuer {
  constructor(readonly options: ServiceAccountIssuerOptions) {}

  get issuer(): string {
    return this.options.issuers[0];
  }

  async bound(claims: BoundTokenClaims, nowMs = Date.now()): Promise<BoundToken> {
    const jti = randomUUID();
    const issuedAt = Math.floor(nowMs / 1000);
    const payload = boundTokenPayload({ ...claims, issuer: this.issuer, now: issuedAt, jti });
    return { token: await signJwt(payload, this.options.key), jti, issuedAt };
  }

  async legacy(namespace: string, serviceAccount: ObjectRef, secretName: string): Promise<string> {
    return signJwt(legacyTokenPayload(namespace, serviceAccount, secretName), this.options.key);
  }
}
