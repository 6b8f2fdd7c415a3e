import { Global, Module } from '@nestjs/common';
import { ADMISSION } from '../registry/index.js';
import { STORE, type Store } from '../storage/index.js';
import { RbacEscalationCheck } from '../authorization/index.js';
import { AdmissionChain } from './chain.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';

/** The admission plugins every write passes, in kube's order. */
@Global()
@Module({
  providers: [
    {
      provide: ADMISSION,
      useFactory: (store: Store, rbac: RbacEscalationCheck) =>
        new AdmissionChain([new NamespaceLifecycle(store), rbac]),
      inject: [STORE, RbacEscalationCheck],
    },
  ],
  exports: [ADMISSION],
})
export class AdmissionModule {}
