import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { Authenticator, type UserInfo } from '../../modules/authentication/index.js';
import { GenericStore, NamespaceController, Registry } from '../../modules/registry/index.js';
import { STORE, type Store } from '../../modules/storage/index.js';
import { WatchCache } from '../../modules/watch/index.js';
import { NonResourceHandlers } from './non-resource.js';
import { ReadHandlers } from './reads.js';
import { Pipeline } from './pipeline.js';
import { ResourceHandlers } from './resources.js';

export interface ServerOptions {
  tokens: Map<string, UserInfo>;
  /** host:port clients reach this server at (discovery's serverAddressByClientCIDRs) */
  serverAddress: () => string;
}

@Module({})
export class ServerModule {
  static forRoot(options: ServerOptions): DynamicModule {
    const logger = new Logger('pipeline');
    return {
      module: ServerModule,
      providers: [
        {
          provide: Pipeline,
          useFactory: (
            registry: Registry,
            generic: GenericStore,
            store: Store,
            namespaces: NamespaceController,
            cache: WatchCache,
          ) =>
            new Pipeline(
              new Authenticator(options.tokens),
              registry,
              new ResourceHandlers(generic, new ReadHandlers(generic, store, cache), () => namespaces.kick()),
              new NonResourceHandlers(registry, options.serverAddress),
              (e) => logger.error(e instanceof Error ? (e.stack ?? e.message) : String(e)),
            ),
          inject: [Registry, GenericStore, STORE, NamespaceController, WatchCache],
        },
      ],
      exports: [Pipeline],
    };
  }
}
