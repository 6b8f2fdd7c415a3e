import { Module, type DynamicModule } from '@nestjs/common';
import { KindsModule } from '../modules/kinds/index.js';
import { RegistryModule } from '../modules/registry/index.js';
import { StorageModule } from '../modules/storage/index.js';
import { VersioningModule } from '../modules/versioning/index.js';
import { WatchModule } from '../modules/watch/index.js';
import type { Config } from './config/config.js';
import { CONFIG } from './config/config.js';
import { ServerModule, type ServerOptions } from './server/server.module.js';

/** Composes the modules; nothing else. */
@Module({})
export class AppModule {
  static forRoot(config: Config, databaseUrl: string, server: ServerOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        VersioningModule.forRoot(config),
        StorageModule.forRoot(databaseUrl),
        RegistryModule.forRoot(config.apiEnablement),
        KindsModule,
        WatchModule.forRoot(config.historyRetentionMs),
        ServerModule.forRoot(server, config),
      ],
      providers: [{ provide: CONFIG, useValue: config }],
    };
  }
}
