import { Module, type DynamicModule } from '@nestjs/common';
import { STORE } from '../storage/index.js';
import type { Store } from '../storage/index.js';
import { GenericStore } from './generic-store.js';
import type { ResourceDefinition } from './definition.js';
import { Registry } from './registry.js';
import { ADMISSION, type Admission } from './admission.js';

/** Which versions of the built-in kinds are served (--runtime-config); default: every one. */
export interface Enablement {
  served(defs: readonly ResourceDefinition[]): ResourceDefinition[];
}

@Module({})
export class RegistryModule {
  static forRoot(definitions: ResourceDefinition[], enablement?: Enablement): DynamicModule {
    return {
      module: RegistryModule,
      global: true,
      providers: [
        {
          provide: Registry,
          useFactory: () => new Registry(enablement?.served(definitions) ?? definitions, definitions),
        },
        {
          provide: GenericStore,
          useFactory: (store: Store, admission?: Admission) => new GenericStore(store, admission),
          inject: [STORE, { token: ADMISSION, optional: true }],
        },
      ],
      exports: [Registry, GenericStore],
    };
  }
}
