import { Global, Module, type DynamicModule } from '@nestjs/common';
import { AuthorizerChain } from './chain.js';
import { authorizerChain } from './modes.js';

export interface AuthorizationOptions {
  /** --authorization-mode, in order (checked at parse time); empty: not given */
  modes: readonly string[];
}

/** The authorizer chain of --authorization-mode, system:masters first; anything no authorizer allows is forbidden. */
@Global()
@Module({})
export class AuthorizationModule {
  static forRoot(options: AuthorizationOptions): DynamicModule {
    return {
      module: AuthorizationModule,
      providers: [{ provide: AuthorizerChain, useFactory: () => authorizerChain(options.modes) }],
      exports: [AuthorizerChain],
    };
  }
}
