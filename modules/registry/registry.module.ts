import { Module, type DynamicModule } from '@nestjs/common';
import { STORE } from '../storage/index.js';
import type { Store } from '../storage/index.js';
import { GenericStore } from './generic-store.js';
import type { Enablement } from './enablement.js';
import { Registry } from './registry.js';
import { ADMISSION, type Admission } from './admission.js';
import { VirtualKinds } from './virtual.js';
import { storedBodyCheck } from './stored-body-check.js';

export type { Enablement };

/** The registry starts empty: kinds join through Registry.register (modules/kinds for the built-in ones). */
@Module({})
export class RegistryModule {
  static forRoot(enablement?: Enablement): DynamicModule {
    return {
      module: RegistryModule,
      global: true,
      providers: [
        {
          provide: Registry,
          useFactory: (store: Store) => {
            const registry = new Registry(enablement);
            // every body read from storage is checked against its kind as the registry has it (corrupt rows)
            store.setBodyCheck(storedBodyCheck(registry));
            return registry;
          },
          inject: [STORE],
        },
        { provide: VirtualKinds, useFactory: () => new VirtualKinds() },
        {
          provide: GenericStore,
          useFactory: (store: Store, admission?: Admission) => new GenericStore(store, admission),
          inject: [STORE, { token: ADMISSION, optional: true }],
        },
      ],
      exports: [Registry, GenericStore, VirtualKinds],
    };
  }
}
