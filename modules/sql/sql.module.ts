import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type postgres from 'postgres';
import { Registry } from '../registry/index.js';
import { SQL } from '../storage/index.js';
import { LiveViews, type LiveViewsOptions } from './live-views.js';

/**
 * Starts following the registry at bootstrap. AppModule imports this module after ApiextensionsModule, whose
 * bootstrap serves every stored CRD first: the first sync then sees the whole set of kinds, and a start with
 * nothing changed changes no view.
 */
class LiveViewsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(LiveViews) private readonly views: LiveViews) {}
  async onApplicationBootstrap(): Promise<void> {
    await this.views.start();
  }
  async onApplicationShutdown(): Promise<void> {
    await this.views.stop();
  }
}

/** The read-only SQL interface: schema `k8s`, one view per stored kind and `k8s.changes` (README, "SQL"). */
@Module({})
export class SqlModule {
  static forRoot(options: LiveViewsOptions): DynamicModule {
    const logger = new Logger('sql');
    return {
      module: SqlModule,
      providers: [
        {
          provide: LiveViews,
          useFactory: (sql: postgres.Sql, registry: Registry) =>
            new LiveViews(sql, registry, options, {
              info: (m) => logger.log(m),
              warn: (m) => logger.warn(m),
            }),
          inject: [SQL, Registry],
        },
        LiveViewsLifecycle,
      ],
    };
  }
}
