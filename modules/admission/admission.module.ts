import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ADMISSION } from '../registry/index.js';
import { STORE, type Store } from '../storage/index.js';
import { RbacEscalationCheck } from '../authorization/index.js';
import { AdmissionChain } from './chain.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { NodeRestriction } from './node-restriction.js';
import type { NamespaceSource } from './namespace-source.js';

export interface AdmissionOptions {
  /** where namespaces live when not here (a delegating server's host); unset: this server's store */
  namespaces?: NamespaceSource;
}

/** The admission plugins every write passes, in kube's order. */
@Global()
@Module({})
export class AdmissionModule {
  static forRoot(options: AdmissionOptions = {}): DynamicModule {
    return {
      module: AdmissionModule,
      providers: [
        {
          provide: ADMISSION,
          useFactory: (store: Store, rbac: RbacEscalationCheck) =>
            new AdmissionChain([
              new NamespaceLifecycle(store, options.namespaces),
              new NodeRestriction(store),
              rbac,
            ]),
          inject: [STORE, RbacEscalationCheck],
        },
      ],
      exports: [ADMISSION],
    };
  }
}
