import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { Authenticator, type UserInfo } from '../../modules/authentication/index.js';
import { GenericStore, Registry } from '../../modules/registry/index.js';
import { ControllersModule, NamespaceController } from '../../modules/controllers/index.js';
import { SQL, STORE, type Store } from '../../modules/storage/index.js';
import { always, flag, HealthEndpoint, withGracePeriod, withTimeout } from '../../modules/health/index.js';
import { DeprecatedApis } from '../../modules/versioning/index.js';
import type postgres from 'postgres';
import { servedMinorVersion } from '../../modules/api/index.js';
import { ApiMetrics } from '../../modules/metrics/index.js';
import type { Config } from '../config/config.js';
import { WatchCache } from '../../modules/watch/index.js';
import { NonResourceHandlers } from '../../modules/endpoints/index.js';
import { ReadHandlers } from '../../modules/endpoints/index.js';
import { Pipeline } from '../../modules/endpoints/index.js';
import { ResourceHandlers } from '../../modules/endpoints/index.js';

export interface ServerOptions {
  /** set once SIGTERM arrived: /readyz fails from then on */
  shuttingDown: () => boolean;
  tokens: Map<string, UserInfo>;
  /** host:port clients reach this server at (discovery's serverAddressByClientCIDRs) */
  serverAddress: () => string;
}

export interface HealthOptions {
  /** --livez-grace-period: /livez passes unfinished start-up checks this long after start */
  livezGracePeriodMs: number;
}

/** kube's three health endpoints over this server's checks (PostgreSQL only where it decides readiness). */
function healthEndpoints(
  sql: postgres.Sql,
  cache: WatchCache,
  namespaces: NamespaceController,
  o: ServerOptions,
  h: HealthOptions,
) {
  const ping = always('ping');
  const log = always('log');
  const postgresCheck = withTimeout('postgres', 2000, () => sql`SELECT 1`);
  const builtins = flag(
    'poststarthook/builtin-namespaces',
    () => namespaces.builtinsReady,
    'not created yet',
  );
  const synced = flag('watch-cache-synced', () => cache.synced, 'watch cache not synced');
  const shutdown = flag('shutdown', () => !o.shuttingDown(), 'shutting down');
  return {
    healthz: new HealthEndpoint('healthz', [ping, log, postgresCheck, builtins]),
    livez: new HealthEndpoint('livez', [ping, log, withGracePeriod(builtins, h.livezGracePeriodMs)]),
    readyz: new HealthEndpoint('readyz', [ping, log, postgresCheck, synced, builtins, shutdown]),
  };
}

/** kube's resource label: `configmaps`, `leases.coordination.k8s.io` */
function storageObjects(cache: WatchCache): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, n] of cache.objectCounts()) {
    const [group, resource] = key.split('/');
    out.set(group ? `${resource}.${group}` : resource, n);
  }
  return out;
}

@Module({})
export class ServerModule {
  static forRoot(options: ServerOptions, config: Config): DynamicModule {
    const logger = new Logger('pipeline');
    return {
      module: ServerModule,
      imports: [ControllersModule],
      providers: [
        {
          provide: Pipeline,
          useFactory: (
            registry: Registry,
            generic: GenericStore,
            store: Store,
            namespaces: NamespaceController,
            cache: WatchCache,
            sql: postgres.Sql,
            deprecatedApis: DeprecatedApis,
          ) => {
            const metrics = new ApiMetrics({
              currentVersion: servedMinorVersion,
              showHiddenForVersion: config.showHiddenMetricsForVersion,
              warn: (m) => new Logger('metrics').warn(m),
              storageObjects: () => storageObjects(cache),
              deprecatedApis: () => deprecatedApis.requested(),
            });
            return new Pipeline(
              new Authenticator(options.tokens),
              registry,
              new ResourceHandlers(
                generic,
                new ReadHandlers(generic, store, cache, (labels) => metrics.watchEventCounter(labels)),
                () => namespaces.kick(),
              ),
              new NonResourceHandlers(
                registry,
                options.serverAddress,
                healthEndpoints(sql, cache, namespaces, options, config),
                metrics,
              ),
              deprecatedApis,
              (e) => logger.error(e instanceof Error ? (e.stack ?? e.message) : String(e)),
              metrics,
              config.featureGates,
            );
          },
          inject: [Registry, GenericStore, STORE, NamespaceController, WatchCache, SQL, DeprecatedApis],
        },
      ],
      exports: [Pipeline],
    };
  }
}
