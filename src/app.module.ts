import { Module, type DynamicModule } from '@nestjs/common';
import type { UserInfo } from '../modules/api/index.js';
import type {
  CertificatePool,
  HostTrust,
  RequestHeaderOptions,
  ServiceAccountKeys,
} from '../modules/authentication/index.js';
import { AdmissionModule, type NamespaceSource } from '../modules/admission/index.js';
import { AuditModule, type Policy } from '../modules/audit/index.js';
import { AggregationModule, type SelfRegistrationOptions } from '../modules/aggregation/index.js';
import type { WebhookConnection } from '../modules/webhook/index.js';
import { ApiextensionsModule, type ApiDefinition } from '../modules/apiextensions/index.js';
import { AuthenticationModule, type LoadedAuthentication } from '../modules/authentication/index.js';
import {
  AuthorizationModule,
  type DelegatedAuthorization,
  type LoadedAuthorization,
} from '../modules/authorization/index.js';
import { ControllersModule, type ClusterEndpoint } from '../modules/controllers/index.js';
import { EndpointsModule } from '../modules/endpoints/index.js';
import { KindsModule } from '../modules/kinds/index.js';
import {
  defaultDisruption,
  NodeLifecycleController,
  NodesModule,
  Scheduler,
  TaintEvictionController,
} from '../modules/nodes/index.js';
import { RegistryModule } from '../modules/registry/index.js';
import { SidecarModule } from '../modules/sidecar/index.js';
import { SqlModule } from '../modules/sql/index.js';
import { StorageModule } from '../modules/storage/index.js';
import { VersioningModule } from '../modules/versioning/index.js';
import { WatchModule } from '../modules/watch/index.js';
import type { Config } from './config/config.js';
import { CONFIG } from './config/config.js';

/** What the server knows only once it runs: credentials read at start, its address, its shutdown. */
export interface ServerOptions {
  /** set once SIGTERM arrived: /readyz fails from then on */
  shuttingDown: () => boolean;
  tokens: Map<string, UserInfo>;
  /** signs and verifies service-account tokens (from --service-account-*key-file, or the serving key) */
  serviceAccountKeys: ServiceAccountKeys;
  /** the CA clients trust to reach this server: published as kube-root-ca.crt and in token Secrets */
  servingCa: string;
  /** host:port clients reach this server at (discovery's serverAddressByClientCIDRs) */
  serverAddress: () => string;
  /** what the authentication flags' files said (anonymous access, the token webhook); unset: kube's defaults */
  authentication?: LoadedAuthentication;
  /** what the authorization flags' files said (ABAC policies, the authorization webhook) */
  authorization?: LoadedAuthorization;
  /** --audit-policy-file, read and validated at start; unset: nothing is audited */
  auditPolicy?: Policy;
  /** the URL and CA clients use, resolved once the server listens (cluster-info is made from it) */
  clusterEndpoint?: Promise<ClusterEndpoint>;
  /** client certificates and the authenticating proxy (src/server/client-trust.ts) */
  clientCa?: CertificatePool;
  requestHeader?: RequestHeaderOptions;
  /** --apiservice-kubeconfig: the host to keep this server's APIServices in, and what they say */
  registration?: { host: WebhookConnection; options: SelfRegistrationOptions };
  /** what this server presents to the aggregated servers it proxies to */
  proxyClient?: { cert: string; key: string };
  /** the CRDs --api-definitions names, read at start */
  apiDefinitions?: ApiDefinition[];
  /** a delegating server's host (src/server/delegation.ts): its trust, its authorization, its namespaces */
  hostTrust?: HostTrust;
  delegatedAuthorization?: DelegatedAuthorization;
  namespaces?: NamespaceSource;
  /** sidecar mode (--upstream-kubeconfig, --upstream-in-cluster): the upstream cluster, read at start */
  upstream?: WebhookConnection;
}

/**
 * Composes the standalone server from the modules; nothing else. Other modes (aggregated, sidecar, node
 * agent) compose the same modules differently.
 */
@Module({})
export class AppModule {
  static forRoot(config: Config, databaseUrl: string, server: ServerOptions): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        VersioningModule.forRoot(config),
        StorageModule.forRoot(databaseUrl, { unavailableTimeoutMs: config.storageUnavailableTimeoutMs }),
        RegistryModule.forRoot(config.apiEnablement),
        KindsModule,
        WatchModule.forRoot(config.historyRetentionMs),
        ApiextensionsModule.forRoot(server.apiDefinitions, config.apiDefinitions),
        // after ApiextensionsModule: its bootstrap serves the stored CRDs before the views are first synced
        SqlModule.forRoot({
          exposeSecretData: config.sqlExposeSecretData,
          retentionMs: config.historyRetentionMs,
        }),
        AuthorizationModule.forRoot({
          ...server.authorization,
          modes: config.authorizationModes,
          selectors: config.featureGates.enabled('AuthorizeWithSelectors'),
          nodeSelectors: config.featureGates.enabled('AuthorizeNodeWithSelectors'),
          configFile: config.authorizationConfig,
          delegated: server.delegatedAuthorization,
        }),
        AuthenticationModule.forRoot({
          ...server.authentication,
          tokens: server.tokens,
          clientCa: server.clientCa,
          requestHeader: server.requestHeader,
          hostTrust: server.hostTrust,
          apiAudiences: config.apiAudiences,
          bootstrapTokens: config.enableBootstrapTokenAuth,
          serviceAccounts: {
            keys: server.serviceAccountKeys,
            issuers: config.serviceAccountIssuers,
            apiAudiences: config.apiAudiences,
            lookup: config.serviceAccountLookup,
            maxExpirationSeconds: config.serviceAccountMaxTokenExpirationS,
            jwksUri: config.serviceAccountJwksUri,
          },
        }),
        AdmissionModule.forRoot({ namespaces: server.namespaces }),
        AggregationModule.forRoot({
          host: config.builtinApis,
          proxyClient: server.proxyClient,
          registration: server.registration,
        }),
        // sidecar mode: what this server does not serve goes to the upstream (the pipeline's upstream step)
        ...(server.upstream ? [SidecarModule.forRoot({ upstream: server.upstream })] : []),
        NodesModule.forRoot({
          monitorMs: config.nodeMonitorGracePeriodMs,
          startupMs: config.nodeStartupGracePeriodMs,
          periodMs: config.nodeMonitorPeriodMs,
          disruption: { ...defaultDisruption, evictionRate: config.nodeEvictionRate },
        }),
        ControllersModule.forRoot({
          controllers: config.controllers,
          moreControllers: [NodeLifecycleController, TaintEvictionController, Scheduler],
          clusterEndpoint: server.clusterEndpoint,
          rootCa: server.servingCa,
        }),
        AuditModule.forRoot({
          policy: server.auditPolicy,
          logPath: config.auditLogPath,
          rotation: {
            maxSizeMb: config.auditLogMaxSize,
            maxBackups: config.auditLogMaxBackup,
            maxAgeDays: config.auditLogMaxAge,
          },
          databaseUrl: config.auditDatabase ? databaseUrl : undefined,
          retentionMs: config.auditRetentionMs,
        }),
        EndpointsModule.forRoot({
          shuttingDown: server.shuttingDown,
          serverAddress: server.serverAddress,
          livezGracePeriodMs: config.livezGracePeriodMs,
          showHiddenMetricsForVersion: config.showHiddenMetricsForVersion,
          limits: {
            requestTimeoutMs: config.requestTimeoutMs,
            minRequestTimeoutS: config.minRequestTimeoutS,
            maxRequestsInflight: config.maxRequestsInflight,
            maxMutatingRequestsInflight: config.maxMutatingRequestsInflight,
          },
        }),
      ],
      providers: [{ provide: CONFIG, useValue: config }],
      exports: [CONFIG],
    };
  }
}
