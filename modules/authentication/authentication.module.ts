import { Module, type DynamicModule } from '@nestjs/common';
import type { UserInfo } from '../api/index.js';
import { AuthorizerChain } from '../authorization/index.js';
import { STORE, type Store } from '../storage/index.js';
import { WatchCache } from '../watch/index.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import { Impersonation } from './impersonation.js';
import { ServiceAccountTokenAuthenticator } from './serviceaccount/authenticator.js';
import { cachedObjects } from './serviceaccount/cached-objects.js';
import { TokenIssuer } from './serviceaccount/issuer.js';
import type { ServiceAccountKeys } from './serviceaccount/keys.js';
import { discoverableIssuer, OpenIdDiscovery } from './serviceaccount/oidc-discovery.js';
import { AuthenticatorUnion } from './union.js';

export interface AuthenticationOptions {
  /** static bearer tokens (token file and the admin token) */
  tokens: ReadonlyMap<string, UserInfo>;
  /** requests without credentials are system:anonymous (kube's --anonymous-auth, default true) */
  anonymous?: boolean;
  /** service-account tokens: their keys and the --service-account-* flags */
  serviceAccounts: ServiceAccountOptions;
}

export interface ServiceAccountOptions {
  keys: ServiceAccountKeys;
  /** --service-account-issuer (the first issues) */
  issuers: string[];
  /** --api-audiences, else the issuers */
  apiAudiences: string[];
  /** --service-account-lookup */
  lookup: boolean;
  /** --service-account-max-token-expiration in seconds; 0: none */
  maxExpirationSeconds: number;
  /** --service-account-jwks-uri */
  jwksUri?: string;
}

/** The issuer's discovery documents; null when the issuer is no https URL (kube then serves none). */
export const OPENID_DISCOVERY = Symbol('OpenIdDiscovery');

/** The authenticator union and impersonation (which asks the authorizer chain). */
@Module({})
export class AuthenticationModule {
  static forRoot(options: AuthenticationOptions): DynamicModule {
    const sa = options.serviceAccounts;
    return {
      module: AuthenticationModule,
      global: true,
      providers: [
        {
          provide: ServiceAccountTokenAuthenticator,
          useFactory: (cache: WatchCache, store: Store) =>
            new ServiceAccountTokenAuthenticator({
              keys: sa.keys.verifying,
              issuers: sa.issuers,
              apiAudiences: sa.apiAudiences,
              lookup: sa.lookup,
              objects: cachedObjects(cache, store),
            }),
          inject: [WatchCache, STORE],
        },
        {
          provide: TokenIssuer,
          useFactory: () =>
            new TokenIssuer({
              key: sa.keys.signing,
              issuers: sa.issuers,
              apiAudiences: sa.apiAudiences,
              maxExpirationSeconds: sa.maxExpirationSeconds,
            }),
        },
        {
          provide: OPENID_DISCOVERY,
          useFactory: () =>
            discoverableIssuer(sa.issuers[0])
              ? new OpenIdDiscovery(sa.issuers[0], sa.jwksUri, sa.keys.verifying)
              : null,
        },
        {
          provide: AuthenticatorUnion,
          useFactory: (serviceAccounts: ServiceAccountTokenAuthenticator) =>
            new AuthenticatorUnion(
              // kube's order: token file, service-account tokens, then bootstrap tokens and webhooks
              [new BearerTokenAuthenticator(options.tokens), serviceAccounts],
              options.anonymous ?? true,
            ),
          inject: [ServiceAccountTokenAuthenticator],
        },
        {
          provide: Impersonation,
          useFactory: (a: AuthorizerChain) => new Impersonation(a),
          inject: [AuthorizerChain],
        },
      ],
      exports: [
        AuthenticatorUnion,
        Impersonation,
        ServiceAccountTokenAuthenticator,
        TokenIssuer,
        OPENID_DISCOVERY,
      ],
    };
  }
}
