import { Module, type DynamicModule } from '@nestjs/common';
import type { UserInfo } from '../api/index.js';
import { AuthorizerChain } from '../authorization/index.js';
import { secretDefinition } from '../kinds/index.js';
import { storageKey } from '../registry/index.js';
import { WatchCache } from '../watch/index.js';
import type { Authenticator } from './authenticator.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import { BootstrapTokenAuthenticator } from './bootstrap-token.js';
import { Impersonation } from './impersonation.js';
import { AuthenticatorUnion } from './union.js';

export interface AuthenticationOptions {
  /** static bearer tokens (token file and the admin token) */
  tokens: ReadonlyMap<string, UserInfo>;
  /** requests without credentials are system:anonymous (kube's --anonymous-auth, default true) */
  anonymous?: boolean;
  /** --enable-bootstrap-token-auth: `kube-system/bootstrap-token-<id>` Secrets authenticate */
  bootstrapTokens?: boolean;
}

/** The authenticator union and impersonation (which asks the authorizer chain). */
@Module({})
export class AuthenticationModule {
  static forRoot(options: AuthenticationOptions): DynamicModule {
    return {
      module: AuthenticationModule,
      global: true,
      providers: [
        {
          provide: AuthenticatorUnion,
          useFactory: (cache: WatchCache) => {
            // kube's order: token file, service-account tokens, bootstrap tokens, then webhook
            const authenticators: Authenticator[] = [new BearerTokenAuthenticator(options.tokens)];
            if (options.bootstrapTokens) {
              const secrets = storageKey(secretDefinition);
              authenticators.push(
                new BootstrapTokenAuthenticator((ns, name) => cache.get(secrets, ns, name)),
              );
            }
            return new AuthenticatorUnion(authenticators, options.anonymous ?? true);
          },
          inject: [WatchCache],
        },
        {
          provide: Impersonation,
          useFactory: (a: AuthorizerChain) => new Impersonation(a),
          inject: [AuthorizerChain],
        },
      ],
      exports: [AuthenticatorUnion, Impersonation],
    };
  }
}
