import { Module, type DynamicModule } from '@nestjs/common';
import type { UserInfo } from '../api/index.js';
import { AuthorizerChain } from '../authorization/index.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import { Impersonation } from './impersonation.js';
import { AuthenticatorUnion } from './union.js';

export interface AuthenticationOptions {
  /** static bearer tokens (token file and the admin token) */
  tokens: ReadonlyMap<string, UserInfo>;
  /** requests without credentials are system:anonymous (kube's --anonymous-auth, default true) */
  anonymous?: boolean;
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
          useFactory: () =>
            new AuthenticatorUnion([new BearerTokenAuthenticator(options.tokens)], options.anonymous ?? true),
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
