import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { servedMinorVersion } from '../api/index.js';
import {
  AuthenticatorUnion,
  CredentialHeaders,
  Impersonation,
  OPENID_DISCOVERY,
  TokenIssuer,
  type OpenIdDiscovery,
} from '../authentication/index.js';
import { AuthorizerChain } from '../authorization/index.js';
import { AUDITOR, registerAuditMetrics, type Auditor } from '../audit/index.js';
import { DefaultPolicy, NamespaceController } from '../controllers/index.js';
import { always, flag, HealthEndpoint, withGracePeriod, withTimeout } from '../health/index.js';
import { ApiMetrics } from '../metrics/index.js';
import { GenericStore, Registry, VirtualKinds } from '../registry/index.js';
import { STORE, type Store } from '../storage/index.js';
import { DeprecatedApis, FEATURE_GATES, type FeatureGates } from '../versioning/index.js';
import { WatchCache } from '../watch/index.js';
import { REMOTE_APIS, type RemoteApis } from '../discovery/index.js';
import { InflightLimiter } from './inflight.js';
import { NonResourceHandlers } from './non-resource.js';
import { RemoteDocuments } from './remote-documents.js';
import { DELEGATES, Pipeline, UPSTREAM, type Delegate, type UpstreamForwarding } from './pipeline.js';
import { ReadHandlers } from './reads.js';
import { ResourceHandlers } from './resources.js';
import { TokenRequests } from './token-request.js';
import { createBinding } from './pod-binding.js';
import { createEviction } from './pod-eviction.js';
import { RequestTimeouts } from './timeout.js';
import type { ResourceRequest } from './request.js';

export interface EndpointsOptions {
  /** set once SIGTERM arrived: /readyz fails from then on */
  shuttingDown: () => boolean;
  /** host:port clients reach this server at (discovery's serverAddressByClientCIDRs) */
  serverAddress: () => string;
  /** --livez-grace-period: /livez passes unfinished start-up checks this long after start */
  livezGracePeriodMs: number;
  /** --show-hidden-metrics-for-version */
  showHiddenMetricsForVersion?: string;
  /** kube's request limits (--request-timeout, ...); unset: none */
  limits?: RequestLimits;
}

export interface RequestLimits {
  /** --request-timeout: a request that is not long-running answers 504 past this */
  requestTimeoutMs: number;
  /** --min-request-timeout: a watch without timeoutSeconds lasts a random time in [min, 2·min) seconds */
  minRequestTimeoutS: number;
  /** --max-requests-inflight (0: no limit) */
  maxRequestsInflight: number;
  /** --max-mutating-requests-inflight (0: no limit) */
  maxMutatingRequestsInflight: number;
}

type HealthEndpoints = Record<'healthz' | 'livez' | 'readyz', HealthEndpoint>;
const HEALTH = Symbol('HealthEndpoints');

/** kube's three health endpoints over this server's checks (storage only where it decides readiness). */
function healthEndpoints(
  store: Store,
  cache: WatchCache,
  namespaces: NamespaceController,
  policy: DefaultPolicy,
  o: EndpointsOptions,
): HealthEndpoints {
  const ping = always('ping');
  const log = always('log');
  // through the storage port: while its circuit is open (the database away) this fails at once
  const postgresCheck = withTimeout('postgres', 2000, () => store.ping());
  const builtins = flag(
    'poststarthook/builtin-namespaces',
    () => namespaces.builtinsReady,
    'not created yet',
  );
  const roles = flag('poststarthook/rbac/bootstrap-roles', () => policy.ready, 'not finished');
  const synced = flag('watch-cache-synced', () => cache.synced, 'watch cache not synced');
  const shutdown = flag('shutdown', () => !o.shuttingDown(), 'shutting down');
  return {
    healthz: new HealthEndpoint('healthz', [ping, log, postgresCheck, builtins, roles]),
    livez: new HealthEndpoint('livez', [
      ping,
      log,
      withGracePeriod(builtins, o.livezGracePeriodMs),
      withGracePeriod(roles, o.livezGracePeriodMs),
    ]),
    readyz: new HealthEndpoint('readyz', [ping, log, postgresCheck, synced, builtins, roles, shutdown]),
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

/** The request pipeline and its handlers, each a provider wired from the modules it reads. */
@Module({})
export class EndpointsModule {
  static forRoot(options: EndpointsOptions): DynamicModule {
    return {
      module: EndpointsModule,
      providers: [
        {
          provide: ApiMetrics,
          useFactory: (cache: WatchCache, deprecatedApis: DeprecatedApis) =>
            new ApiMetrics({
              currentVersion: servedMinorVersion,
              showHiddenForVersion: options.showHiddenMetricsForVersion,
              warn: (m) => new Logger('metrics').warn(m),
              storageObjects: () => storageObjects(cache),
              deprecatedApis: () => deprecatedApis.requested(),
            }),
          inject: [WatchCache, DeprecatedApis],
        },
        {
          provide: HEALTH,
          useFactory: (
            store: Store,
            cache: WatchCache,
            namespaces: NamespaceController,
            policy: DefaultPolicy,
          ) => healthEndpoints(store, cache, namespaces, policy, options),
          inject: [STORE, WatchCache, NamespaceController, DefaultPolicy],
        },
        {
          provide: ReadHandlers,
          useFactory: (generic: GenericStore, store: Store, cache: WatchCache, metrics: ApiMetrics) =>
            new ReadHandlers(
              generic,
              store,
              cache,
              (labels) => metrics.watchEventCounter(labels),
              options.limits?.minRequestTimeoutS,
            ),
          inject: [GenericStore, STORE, WatchCache, ApiMetrics],
        },
        {
          provide: ResourceHandlers,
          useFactory: (
            generic: GenericStore,
            reads: ReadHandlers,
            namespaces: NamespaceController,
            virtual: VirtualKinds,
            registry: Registry,
            issuer: TokenIssuer,
            authorizer: AuthorizerChain,
            features: FeatureGates,
          ) => {
            const tokens = new TokenRequests(generic, registry, issuer);
            const creates = {
              token: (r: ResourceRequest) => tokens.create(r),
              binding: (r: ResourceRequest) => createBinding(generic, r),
              eviction: (r: ResourceRequest) => createEviction(generic, r),
            };
            const unsafe = { enabled: features.enabled('AllowUnsafeMalformedObjectDeletion'), authorizer };
            return new ResourceHandlers(generic, reads, () => namespaces.kick(), virtual, creates, unsafe);
          },
          inject: [
            GenericStore,
            ReadHandlers,
            NamespaceController,
            VirtualKinds,
            Registry,
            TokenIssuer,
            AuthorizerChain,
            FEATURE_GATES,
          ],
        },
        {
          provide: NonResourceHandlers,
          useFactory: (
            registry: Registry,
            health: HealthEndpoints,
            metrics: ApiMetrics,
            openid: OpenIdDiscovery | null,
            remote: RemoteDocuments | null,
          ) =>
            new NonResourceHandlers(
              registry,
              options.serverAddress,
              health,
              metrics,
              openid ?? undefined,
              remote ?? undefined,
            ),
          inject: [Registry, HEALTH, ApiMetrics, OPENID_DISCOVERY, RemoteDocuments],
        },
        {
          // only on an aggregation host or a sidecar: the aggregation layer or the sidecar provides REMOTE_APIS
          provide: RemoteDocuments,
          useFactory: (remote: RemoteApis | undefined) => {
            if (!remote) return null;
            const log = new Logger('remote-discovery');
            return new RemoteDocuments(remote, {
              onError: (apiService, e) => log.warn(`${apiService}: ${e.message}`),
            });
          },
          inject: [{ token: REMOTE_APIS, optional: true }],
        },
        {
          provide: Pipeline,
          useFactory: (
            authenticator: AuthenticatorUnion,
            impersonation: Impersonation,
            authorizer: AuthorizerChain,
            registry: Registry,
            resources: ResourceHandlers,
            nonResources: NonResourceHandlers,
            deprecatedApis: DeprecatedApis,
            metrics: ApiMetrics,
            features: FeatureGates,
            credentialHeaders: CredentialHeaders,
            delegates: Delegate[] | undefined,
            upstream: UpstreamForwarding | undefined,
            audit: Auditor | null | undefined,
          ) => {
            const logger = new Logger('pipeline');
            const limits = options.limits;
            if (audit) registerAuditMetrics(metrics, audit.counters);
            return new Pipeline({
              authenticator,
              credentialHeaders,
              delegates,
              upstream,
              impersonation,
              authorizer,
              registry,
              resources,
              nonResources,
              deprecatedApis,
              metrics,
              features,
              timeouts: limits && new RequestTimeouts(limits.requestTimeoutMs),
              inflight:
                limits && new InflightLimiter(limits.maxRequestsInflight, limits.maxMutatingRequestsInflight),
              audit: audit ?? undefined,
              log: (e) => logger.error(e instanceof Error ? (e.stack ?? e.message) : String(e)),
            });
          },
          inject: [
            AuthenticatorUnion,
            Impersonation,
            AuthorizerChain,
            Registry,
            ResourceHandlers,
            NonResourceHandlers,
            DeprecatedApis,
            ApiMetrics,
            FEATURE_GATES,
            CredentialHeaders,
            { token: DELEGATES, optional: true },
            // sidecar mode only (modules/sidecar)
            { token: UPSTREAM, optional: true },
            // --audit-policy-file with a backend (modules/audit)
            { token: AUDITOR, optional: true },
          ],
        },
      ],
      exports: [Pipeline],
    };
  }
}
