import {
  type BeforeApplicationShutdown,
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { Registry, storageKey } from '../registry/index.js';
import { STORE } from '../storage/index.js';
import type { Store } from '../storage/index.js';
import { WatchCache } from './watch-cache.js';

class WatchCacheLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(WatchCache) private readonly cache: WatchCache) {}
  async onApplicationBootstrap(): Promise<void> {
    await this.cache.start();
  }
  /** before the HTTP server closes: it waits for open connections, and watches end only when told */
  async beforeApplicationShutdown(): Promise<void> {
    await this.cache.stop();
  }
}

/** Watches of a kind end when the kind is removed from the registry (a CRD deleted). */
class WatchesFollowRegistry implements OnModuleInit, OnModuleDestroy {
  private unsubscribe?: () => void;
  constructor(
    @Inject(WatchCache) private readonly cache: WatchCache,
    @Inject(Registry) private readonly registry: Registry,
  ) {}
  onModuleInit(): void {
    this.unsubscribe = this.registry.subscribe((e) => {
      // a kind stored with another leaves that kind's watches alone
      if (e.type === 'removed' && !e.definition.storedWith) this.cache.endWatchers(storageKey(e.definition));
    });
  }
  onModuleDestroy(): void {
    this.unsubscribe?.();
  }
}

/** Keeps the change log pruned to the history window; any replica may do it, repeats are harmless. */
class HistoryPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject('HISTORY_RETENTION_MS') private readonly retentionMs: number,
  ) {}
  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => void this.store.pruneChanges(this.retentionMs).catch(() => undefined),
      30_000,
    );
    this.timer.unref();
  }
  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}

@Module({})
export class WatchModule {
  static forRoot(retentionMs: number): DynamicModule {
    const logger = new Logger('watch');
    return {
      module: WatchModule,
      global: true,
      providers: [
        { provide: 'HISTORY_RETENTION_MS', useValue: retentionMs },
        {
          provide: WatchCache,
          useFactory: (store: Store) => new WatchCache(store, { retentionMs, log: (m) => logger.warn(m) }),
          inject: [STORE],
        },
        WatchCacheLifecycle,
        WatchesFollowRegistry,
        HistoryPruner,
      ],
      exports: [WatchCache],
    };
  }
}
