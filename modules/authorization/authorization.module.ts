import {
  Global,
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { WatchCache } from '../watch/index.js';
import { AuthorizerChain } from './chain.js';
import { authorizerChain } from './modes.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { RbacEscalationCheck } from './rbac/escalation.js';
import { RbacInformers } from './rbac/informers.js';

export interface AuthorizationOptions {
  /** --authorization-mode, in order (checked at parse time); empty: not given */
  modes: readonly string[];
}

/** The RBAC policy is read whatever the modes: escalation checks of RBAC writes use it (as kube's storage). */
class RbacLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(RbacInformers) private readonly informers: RbacInformers) {}
  onApplicationBootstrap(): void {
    void this.informers.start();
  }
  onApplicationShutdown(): void {
    this.informers.stop();
  }
}

/** The authorizer chain of --authorization-mode, system:masters first; anything no authorizer allows is forbidden. */
@Global()
@Module({})
export class AuthorizationModule {
  static forRoot(options: AuthorizationOptions): DynamicModule {
    return {
      module: AuthorizationModule,
      providers: [
        {
          provide: RbacInformers,
          useFactory: (cache: WatchCache) => new RbacInformers(cache),
          inject: [WatchCache],
        },
        {
          provide: AuthorizerChain,
          useFactory: (rbac: RbacInformers) =>
            authorizerChain(options.modes, {
              RBAC: () => new RbacAuthorizer(rbac.policy, rbac.start()),
            }),
          inject: [RbacInformers],
        },
        {
          provide: RbacEscalationCheck,
          useFactory: (rbac: RbacInformers, chain: AuthorizerChain) =>
            new RbacEscalationCheck(
              rbac.policy,
              () => chain,
              () => rbac.start(),
            ),
          inject: [RbacInformers, AuthorizerChain],
        },
        RbacLifecycle,
      ],
      exports: [AuthorizerChain, RbacEscalationCheck, RbacInformers],
    };
  }
}
