import {
  Inject,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { UserInfo } from '../api/index.js';
import { AuthorizerChain } from '../authorization/index.js';
import { GenericStore, Registry } from '../registry/index.js';
import { WatchCache } from '../watch/index.js';
import type { Authenticator } from './authenticator.js';
import { AuthenticationTrustPublisher } from './authentication-trust.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import type { CertificatePool } from './certificate-pool.js';
import { CredentialHeaders } from './credential-headers.js';
import { Impersonation } from './impersonation.js';
import { RequestHeaderAuthenticator, type RequestHeaderOptions } from './request-header.js';
import { AuthenticatorUnion } from './union.js';
import { X509Authenticator } from './x509.js';

export interface AuthenticationOptions {
  /** static bearer tokens (token file and the admin token) */
  tokens: ReadonlyMap<string, UserInfo>;
  /** requests without credentials are system:anonymous (kube's --anonymous-auth, default true) */
  anonymous?: boolean;
  /** client certificates: --client-ca-file, or the data dir's CA */
  clientCa?: CertificatePool;
  /** the authenticating proxy: --requestheader-* */
  requestHeader?: RequestHeaderOptions;
}

/** kube's order: the proxy's headers, then client certificates, then bearer tokens */
function authenticators(options: AuthenticationOptions): Authenticator[] {
  return [
    ...(options.requestHeader ? [new RequestHeaderAuthenticator(options.requestHeader)] : []),
    ...(options.clientCa ? [new X509Authenticator(options.clientCa)] : []),
    new BearerTokenAuthenticator(options.tokens),
  ];
}

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

/** The authenticator union, impersonation (which asks the authorizer chain) and the trust ConfigMap. */
@Module({})
export class AuthenticationModule {
  static forRoot(options: AuthenticationOptions): DynamicModule {
    return {
      module: AuthenticationModule,
      global: true,
      providers: [
        {
          provide: AuthenticatorUnion,
          useFactory: () => new AuthenticatorUnion(authenticators(options), options.anonymous ?? true),
        },
        {
          provide: Impersonation,
          useFactory: (a: AuthorizerChain) => new Impersonation(a),
          inject: [AuthorizerChain],
        },
        { provide: CredentialHeaders, useValue: new CredentialHeaders(options.requestHeader) },
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
      exports: [AuthenticatorUnion, Impersonation, CredentialHeaders, AuthenticationTrustPublisher],
    };
  }
}
