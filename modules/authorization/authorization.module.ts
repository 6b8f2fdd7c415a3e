import { Global, Module } from '@nestjs/common';
import { AuthorizerChain } from './chain.js';
import { PrivilegedGroupsAuthorizer } from './privileged-groups.js';
import { AuthenticatedUsersAuthorizer, PublicInfoAuthorizer } from './public-info.js';

/** The authorizer chain, system:masters first; anything no authorizer allows is forbidden. */
@Global()
@Module({
  providers: [
    {
      provide: AuthorizerChain,
      useFactory: () =>
        new AuthorizerChain([
          new PrivilegedGroupsAuthorizer(),
          new PublicInfoAuthorizer(),
          new AuthenticatedUsersAuthorizer(),
        ]),
    },
  ],
  exports: [AuthorizerChain],
})
export class AuthorizationModule {}
