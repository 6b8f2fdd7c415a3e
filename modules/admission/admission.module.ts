import { Global, Module } from '@nestjs/common';
import { ADMISSION } from '../registry/index.js';
import { STORE, type Store } from '../storage/index.js';
import { AdmissionChain } from './chain.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';

/** The admission plugins every write passes, in kube's order. */
@Global()
@Module({
  providers: [
    {
      provide: ADMISSION,
      useFactory: (store: Store) => new AdmissionChain([new NamespaceLifecycle(store)]),
      inject: [STORE],
    },
  ],
  exports: [ADMISSION],
})
export class AdmissionModule {}
