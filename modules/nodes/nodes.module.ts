import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { GenericStore, Registry } from '../registry/index.js';
import { WatchCache } from '../watch/index.js';
import { NodeLifecycleController, type NodeLifecycleOptions } from './node-lifecycle-controller.js';

export type NodesOptions = Omit<NodeLifecycleOptions, 'log' | 'now'>;

/**
 * The node controllers. They are Controllers like ControllersModule's: the application hands their classes
 * to ControllersModule (`moreControllers`), whose runner starts them as --controllers and the controllers'
 * leader election say.
 */
@Module({})
export class NodesModule {
  static forRoot(options: NodesOptions): DynamicModule {
    return {
      module: NodesModule,
      global: true,
      providers: [
        {
          provide: NodeLifecycleController,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new NodeLifecycleController(
              cache,
              (group, resource) => registry.storedKind(group, resource),
              generic,
              {
                ...options,
                log: (m) => new Logger('node-lifecycle-controller').warn(m),
              },
            ),
          inject: [WatchCache, Registry, GenericStore],
        },
      ],
      exports: [NodeLifecycleController],
    };
  }
}
