import {
  Inject,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { GenericStore, Registry } from '../registry/index.js';
import { WatchCache } from '../watch/index.js';
import { LocalApiServices } from './local-apiservices.js';

/** Starts keeping the local APIServices once the server is up; stops before storage goes. */
class AggregationLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(LocalApiServices) private readonly local: LocalApiServices) {}
  onApplicationBootstrap(): void {
    // not awaited: it waits for the watch cache, which another module's bootstrap starts
    this.local.start().catch((e: Error) => new Logger('local-apiservices').error(e.message));
  }
  async beforeApplicationShutdown(): Promise<void> {
    await this.local.stop();
  }
}

/**
 * kube-aggregator's part of the server: the APIServices of the group/versions served here (local ones).
 * kube-apiserver runs this itself, so `--controllers` does not turn it off.
 */
@Module({
  providers: [
    {
      provide: LocalApiServices,
      useFactory: (registry: Registry, generic: GenericStore, cache: WatchCache) =>
        new LocalApiServices(registry, generic, cache, (m) => new Logger('local-apiservices').warn(m)),
      inject: [Registry, GenericStore, WatchCache],
    },
    AggregationLifecycle,
  ],
  exports: [LocalApiServices],
})
export class AggregationModule {}
