import {
  Inject,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import type { UserInfo } from '../api/index.js';
import { AuthorizerChain } from '../authorization/index.js';
import { secretDefinition, selfSubjectReviewDefinition, tokenReviewDefinition } from '../kinds/index.js';
import { GenericStore, Registry, storageKey, VirtualKinds } from '../registry/index.js';
import { STORE, type Store } from '../storage/index.js';
import { WatchCache } from '../watch/index.js';
import type { Authenticator } from './authenticator.js';
import { AuthenticationTrustPublisher } from './authentication-trust.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import { BootstrapTokenAuthenticator } from './bootstrap-token.js';
import type { CertificatePool } from './certificate-pool.js';
import { CredentialHeaders } from './credential-headers.js';
import type { WebhookOptions } from './flags.js';
import { Impersonation } from './impersonation.js';
import { RequestHeaderAuthenticator, type RequestHeaderOptions } from './request-header.js';
import { selfSubjectReview, tokenReview } from './reviews.js';
import { ServiceAccountTokenAuthenticator } from './serviceaccount/authenticator.js';
import { cachedObjects } from './serviceaccount/cached-objects.js';
import { TokenIssuer } from './serviceaccount/issuer.js';
import type { ServiceAccountKeys } from './serviceaccount/keys.js';
import { discoverableIssuer, OpenIdDiscovery } from './serviceaccount/oidc-discovery.js';
import { AuthenticatorUnion, type AnonymousAccess } from './union.js';
import { WebhookTokenAuthenticator } from './webhook/authenticator.js';
import { TokenReviewClient } from './webhook/client.js';
import { X509Authenticator } from './x509.js';
import type { HostTrust } from './delegation/host-trust.js';

export interface AuthenticationOptions {
  /** static bearer tokens (token file and the admin token) */
  tokens: ReadonlyMap<string, UserInfo>;
  /** requests without credentials are system:anonymous: --anonymous-auth (default true) or --authentication-config */
  anonymous?: boolean | AnonymousAccess;
  /** --api-audiences: what credentials must be meant for, and TokenReview's default audiences */
  apiAudiences?: readonly string[];
  /** --authentication-token-webhook-*: asked last among the token authenticators, as in kube */
  webhook?: WebhookOptions;
  /** --enable-bootstrap-token-auth: `kube-system/bootstrap-token-<id>` Secrets authenticate */
  bootstrapTokens?: boolean;
  /** service-account tokens: their keys and the --service-account-* flags */
  serviceAccounts: ServiceAccountOptions;
  /** client certificates: --client-ca-file, or the data dir's CA */
  clientCa?: CertificatePool;
  /** the authenticating proxy: --requestheader-* */
  requestHeader?: RequestHeaderOptions;
  /**
   * A delegating server's host (--authentication-kubeconfig): the client CA and the proxy it names replace
   * `clientCa` and `requestHeader` where it reads them, followed while the server runs
   */
  hostTrust?: HostTrust;
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

/** The token webhook's authenticator, when one is configured. */
function webhookAuthenticators(options: AuthenticationOptions): Authenticator[] {
  const webhook = options.webhook;
  if (!webhook) return [];
  const logger = new Logger('authentication');
  const client = new TokenReviewClient(webhook.connection, webhook.version, webhook.timeoutMs);
  return [
    new WebhookTokenAuthenticator(client, {
      cacheTtlMs: webhook.cacheTtlMs,
      apiAudiences: options.apiAudiences,
      sendAudiences: webhook.sendAudiences,
      log: (m) => logger.warn(m),
    }),
  ];
}

/** Gives authentication.k8s.io's virtual kinds their answers once the union exists. */
class AuthenticationReviews implements OnModuleInit {
  constructor(
    @Inject(VirtualKinds) private readonly virtual: VirtualKinds,
    @Inject(AuthenticatorUnion) private readonly union: AuthenticatorUnion,
  ) {}

  onModuleInit(): void {
    this.virtual.provide(tokenReviewDefinition, tokenReview(this.union));
    this.virtual.provide(selfSubjectReviewDefinition, selfSubjectReview);
  }
}

/** Follows the host's trust while the server runs (a delegating server); its first read was made at start. */
class HostTrustLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(private readonly hostTrust: HostTrust | undefined) {}
  onApplicationBootstrap(): void {
    this.hostTrust?.follow();
  }
  beforeApplicationShutdown(): void {
    this.hostTrust?.stop();
  }
}

/** The authenticator union, impersonation (which asks the authorizer chain) and the authentication reviews. */

/** Publishes extension-apiserver-authentication before the server listens, then keeps it; stops before storage. */
class TrustLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(AuthenticationTrustPublisher) private readonly publisher: AuthenticationTrustPublisher,
  ) {}
  async onApplicationBootstrap(): Promise<void> {
    await this.publisher.publish();
    // not awaited: it waits for the watch cache, which another module's bootstrap starts
    this.publisher.follow().catch((e: Error) => new Logger('authentication-trust').error(e.message));
  }
  async beforeApplicationShutdown(): Promise<void> {
    await this.publisher.stop();
  }
}

@Module({})
export class AuthenticationModule {
  static forRoot(options: AuthenticationOptions): DynamicModule {
    const sa = options.serviceAccounts;
    const host = options.hostTrust;
    const clientCa = host?.readsClientCa ? host.clientCa : options.clientCa;
    const requestHeader = host?.readsRequestHeader ? host.requestHeader : options.requestHeader;
    const credentialHeaders = new CredentialHeaders(
      host?.readsRequestHeader ? host.requestHeader() : options.requestHeader,
    );
    // the proxy's header names may change with the host's ConfigMap: they are removed from requests all the same
    if (host?.readsRequestHeader) host.onChange((state) => credentialHeaders.configure(state.requestHeader));
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
          useFactory: (cache: WatchCache, serviceAccounts: ServiceAccountTokenAuthenticator) => {
            // kube's order: the proxy's headers, client certificates, then the token file, service-account
            // tokens, bootstrap tokens and the webhook
            const authenticators: Authenticator[] = [
              ...(requestHeader ? [new RequestHeaderAuthenticator(requestHeader)] : []),
              ...(clientCa ? [new X509Authenticator(clientCa)] : []),
              new BearerTokenAuthenticator(options.tokens),
              serviceAccounts,
            ];
            if (options.bootstrapTokens) {
              const secrets = storageKey(secretDefinition);
              authenticators.push(
                new BootstrapTokenAuthenticator((ns, name) => cache.get(secrets, ns, name)),
              );
            }
            authenticators.push(...webhookAuthenticators(options));
            return new AuthenticatorUnion(authenticators, {
              anonymous: options.anonymous,
              apiAudiences: options.apiAudiences,
            });
          },
          inject: [WatchCache, ServiceAccountTokenAuthenticator],
        },
        {
          provide: Impersonation,
          useFactory: (a: AuthorizerChain) => new Impersonation(a),
          inject: [AuthorizerChain],
        },
        AuthenticationReviews,
        { provide: CredentialHeaders, useValue: credentialHeaders },
        { provide: HostTrustLifecycle, useValue: new HostTrustLifecycle(host) },
        {
          provide: AuthenticationTrustPublisher,
          useFactory: (registry: Registry, generic: GenericStore, cache: WatchCache) =>
            new AuthenticationTrustPublisher(
              registry,
              generic,
              cache,
              { clientCa: options.clientCa, requestHeader: options.requestHeader },
              (m) => new Logger('authentication-trust').warn(m),
            ),
          inject: [Registry, GenericStore, WatchCache],
        },
        TrustLifecycle,
      ],
      exports: [
        AuthenticatorUnion,
        Impersonation,
        ServiceAccountTokenAuthenticator,
        TokenIssuer,
        OPENID_DISCOVERY,
        CredentialHeaders,
        AuthenticationTrustPublisher,
      ],
    };
  }
}
