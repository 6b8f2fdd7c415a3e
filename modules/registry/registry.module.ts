import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { STORE } from '../storage/storage.module.js';
import type { Store } from '../storage/store.js';
import { GenericStore } from './generic-store.js';
import { builtinDefinitions } from './kinds/index.js';
import { NamespaceController } from './namespace-controller.js';
import type { ResourceDefinition } from './definition.js';
import { Registry } from './registry.js';

/** Which versions of the built-in kinds are served (--runtime-config); default: every one. */
export interface Enablement {
  served(defs: readonly ResourceDefinition[]): ResourceDefinition[];
}

class NamespaceLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(NamespaceController) private readonly controller: NamespaceController) {}
  async onApplicationBootstrap(): Promise<void> {
    await this.controller.ensureBuiltins();
    this.controller.start();
  }
  async onApplicationShutdown(): Promise<void> {
    await this.controller.stop();
  }
}

@Module({})
export class RegistryModule {
  static forRoot(enablement?: Enablement): DynamicModule {
    const logger = new Logger('registry');
    return {
      module: RegistryModule,
      global: true,
      providers: [
        {
          provide: Registry,
          useFactory: () =>
            new Registry(enablement?.served(builtinDefinitions) ?? builtinDefinitions, builtinDefinitions),
        },
        { provide: GenericStore, useFactory: (store: Store) => new GenericStore(store), inject: [STORE] },
        {
          provide: NamespaceController,
          useFactory: (registry: Registry, generic: GenericStore) =>
            new NamespaceController(registry, generic, (m) => logger.warn(m)),
          inject: [Registry, GenericStore],
        },
        NamespaceLifecycle,
      ],
      exports: [Registry, GenericStore, NamespaceController],
    };
  }
}
