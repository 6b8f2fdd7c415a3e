import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import {
  Inject,
  type InjectionToken,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { TokenIssuer } from '../authentication/index.js';
import { ClusterRoleAggregation } from './clusterrole-aggregation.js';
import { DefaultPolicy } from './default-policy.js';
import { GenericStore, Registry } from '../registry/index.js';
import { WatchCache } from '../watch/index.js';
import { BootstrapSigner } from './bootstrap-signer.js';
import type { ClusterEndpoint } from './cluster-info.js';
import { enabledControllers, type Controller } from './controller.js';
import { GarbageCollector } from './garbage-collector.js';
import { LeaderElector, type LeaderElectionOptions } from './leader-election.js';
import { NamespaceController } from './namespace-controller.js';
import { RootCaPublisher } from './root-ca-publisher.js';
import { ControllerRunner } from './runner.js';
import { ServiceAccountController } from './serviceaccount-controller.js';
import { ServiceAccountTokenController } from './serviceaccount-token-controller.js';
import { TokenCleaner } from './token-cleaner.js';

const logTo = (name: string) => (message: string) => new Logger(name).warn(message);

/** every controller the server has, enabled or not: the runner starts those `--controllers` names */
const CONTROLLERS = Symbol('controllers');

class ControllersLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(NamespaceController) private readonly namespaces: NamespaceController,
    @Inject(ControllerRunner) private readonly runner: ControllerRunner,
    @Inject(DefaultPolicy) private readonly policy: DefaultPolicy,
  ) {}
  async onApplicationBootstrap(): Promise<void> {
    // kube-apiserver itself keeps the built-in namespaces and the default RBAC policy, whatever controllers run
    await this.namespaces.ensureBuiltins();
    await this.policy.reconcile();
    await this.runner.start();
  }
  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}

export interface ControllersOptions {
  /** kube's `--controllers` values (default `*`) */
  controllers?: readonly string[];
  /** the URL and CA clients use, once the server listens (bootstrapsigner creates cluster-info from it) */
  clusterEndpoint?: Promise<ClusterEndpoint>;
  /** the CA clients trust to reach this server (kube-root-ca.crt, token Secrets' ca.crt) */
  rootCa?: string;
  /** other modules' controllers (their providers' tokens), run by the same runner (e.g. modules/nodes') */
  moreControllers?: InjectionToken[];
  /** timings of the leader election of the leader-only controllers (default client-go's: 15s, 10s, 2s) */
  leaderElection?: Pick<LeaderElectionOptions, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>;
}

/** kube-controller-manager's Lease: the replica holding it runs the leader-only controllers */
export const CONTROLLERS_LEASE = { namespace: 'kube-system', name: 'kube-controller-manager' };

/** The in-process controllers, started once the application is up (after the watch cache). */
@Module({})
export class ControllersModule {
  static forRoot(options: ControllersOptions = {}): DynamicModule {
    const enabled = enabledControllers(options.controllers ?? []);
    return {
      module: ControllersModule,
      global: true,
      providers: [
        {
          provide: NamespaceController,
          useFactory: (registry: Registry, generic: GenericStore) =>
            new NamespaceController(registry, generic, (m) => new Logger('namespace-controller').warn(m)),
          inject: [Registry, GenericStore],
        },
        {
          provide: TokenCleaner,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new TokenCleaner(
              cache,
              () => registry.storedKind('', 'secrets')!,
              generic,
              logTo('tokencleaner'),
            ),
          inject: [WatchCache, Registry, GenericStore],
        },
        {
          provide: ServiceAccountController,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new ServiceAccountController(cache, registry, generic, logTo('serviceaccount-controller')),
          inject: [WatchCache, Registry, GenericStore],
        },
        {
          provide: BootstrapSigner,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new BootstrapSigner(
              cache,
              (resource) => registry.storedKind('', resource)!,
              generic,
              logTo('bootstrapsigner'),
              options.clusterEndpoint,
            ),
          inject: [WatchCache, Registry, GenericStore],
        },
        {
          provide: RootCaPublisher,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new RootCaPublisher(
              cache,
              registry,
              generic,
              options.rootCa ?? '',
              logTo('root-ca-cert-publisher'),
            ),
          inject: [WatchCache, Registry, GenericStore],
        },
        {
          provide: ServiceAccountTokenController,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore, issuer: TokenIssuer) =>
            new ServiceAccountTokenController(
              cache,
              registry,
              generic,
              issuer,
              options.rootCa ?? '',
              logTo('serviceaccount-token-controller'),
            ),
          inject: [WatchCache, Registry, GenericStore, TokenIssuer],
        },
        {
          provide: DefaultPolicy,
          useFactory: (registry: Registry, generic: GenericStore) => new DefaultPolicy(registry, generic),
          inject: [Registry, GenericStore],
        },
        {
          provide: ClusterRoleAggregation,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new ClusterRoleAggregation(cache, registry, generic, logTo('clusterrole-aggregation-controller')),
          inject: [WatchCache, Registry, GenericStore],
        },
        {
          provide: GarbageCollector,
          useFactory: (cache: WatchCache, registry: Registry, generic: GenericStore) =>
            new GarbageCollector(cache, registry, generic, logTo('garbage-collector')),
          inject: [WatchCache, Registry, GenericStore],
        },
        {
          provide: LeaderElector,
          useFactory: (registry: Registry, generic: GenericStore) =>
            new LeaderElector(generic, () => registry.storedKind('coordination.k8s.io', 'leases')!, {
              ...CONTROLLERS_LEASE,
              ...options.leaderElection,
              identity: `${hostname()}_${randomUUID()}`,
              manager: 'kube-controller-manager',
              log: logTo('leader-election'),
            }),
          inject: [Registry, GenericStore],
        },
        {
          provide: CONTROLLERS,
          useFactory: (...controllers: Controller[]) => controllers,
          inject: [
            NamespaceController,
            ServiceAccountController,
            ServiceAccountTokenController,
            RootCaPublisher,
            TokenCleaner,
            BootstrapSigner,
            ClusterRoleAggregation,
            GarbageCollector,
            ...(options.moreControllers ?? []),
          ],
        },
        {
          provide: ControllerRunner,
          useFactory: (controllers: Controller[], elector: LeaderElector) =>
            new ControllerRunner(controllers, enabled, elector),
          inject: [CONTROLLERS, LeaderElector],
        },
        ControllersLifecycle,
      ],
      exports: [NamespaceController, ControllerRunner, DefaultPolicy, LeaderElector],
    };
  }
}
