import {
  Global,
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  localSubjectAccessReviewDefinition,
  selfSubjectAccessReviewDefinition,
  selfSubjectRulesReviewDefinition,
  subjectAccessReviewDefinition,
} from '../kinds/index.js';
import { ApiMetrics } from '../metrics/index.js';
import { VirtualKinds } from '../registry/index.js';
import { createHash, randomUUID } from 'node:crypto';
import { WatchCache } from '../watch/index.js';
import { atHostPath, readWebhookKubeconfig, WebhookTransport } from '../webhook/index.js';
import { AbacAuthorizer } from './abac.js';
import type { AuthorizationConfiguration, AuthorizerConfig } from './authorization-config.js';
import type { Authorizer } from './authorizer.js';
import { AuthorizerChain } from './chain.js';
import { ConfiguredAuthorizers, type NamedAuthorizer } from './configured.js';
import { checkMatchCondition, compileMatchConditions } from './match-conditions.js';
import { PrivilegedGroupsAuthorizer } from './privileged-groups.js';
import { NodeAuthorizer } from './node.js';
import { NodeGraphInformer } from './node-graph-informer.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { RbacEscalationCheck } from './rbac/escalation.js';
import { RbacInformers } from './rbac/informers.js';
import type { LoadedAuthorization } from './flags.js';
import {
  authorizerChain,
  builtinFactories,
  type AuthorizationMode,
  type DecisionObserver,
  type ModeFactory,
} from './modes.js';
import {
  localSubjectAccessReview,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
  subjectAccessReview,
} from './reviews.js';
import { WebhookAuthorizer } from './webhook.js';
import {
  DELEGATED_TIMEOUT_MS,
  delegatedChain,
  SUBJECT_ACCESS_REVIEW_PATH,
  type DelegatedAuthorization,
} from './delegated.js';

export interface AuthorizationOptions extends LoadedAuthorization {
  /** --authorization-mode, in order (checked at parse time); empty: not given */
  modes: readonly string[];
  /** AuthorizeWithSelectors (beta, on by default): selectors reach the authorizers and the webhook */
  selectors?: boolean;
  /** AuthorizeNodeWithSelectors (beta, on by default): the Node authorizer limits node reads of Nodes and Pods */
  nodeSelectors?: boolean;
  /** --authorization-config: read, validated and reloaded here (excludes `modes` and the files above) */
  configFile?: string;
  /** --authorization-kubeconfig: the chain is the delegating one (excludes everything above) */
  delegated?: DelegatedAuthorization;
}

/** What the authorizers built at start report to, once the server's metrics exist (they are made later). */
interface Sinks {
  transports: WebhookTransport[];
  webhookCall?: (
    name: string,
    result: 'success' | 'timeout' | 'error' | 'canceled',
    seconds: number,
    failOpen: boolean,
  ) => void;
  decision?: DecisionObserver;
  matchCondition?: (type: string, name: string, outcome: 'excluded' | 'error') => void;
  reload?: (status: 'success' | 'failure') => void;
  configured?: ConfiguredAuthorizers;
  /** the RBAC policy, read whatever the modes (the escalation check uses it) */
  rbac?: RbacInformers;
  /** the Node authorizer's graph, started when the Node mode is made */
  nodeGraph?: NodeGraphInformer;
}

/** The factories of the modes whose files were read at start (src/main.ts). */
function modeFactories(
  options: AuthorizationOptions,
  sinks: Sinks,
): Partial<Record<AuthorizationMode, ModeFactory>> {
  const factories: Partial<Record<AuthorizationMode, ModeFactory>> = {};
  const { rbac } = sinks;
  if (rbac) factories.RBAC = () => new RbacAuthorizer(rbac.policy, rbac.start());
  const { nodeGraph } = sinks;
  if (nodeGraph)
    factories.Node = () =>
      new NodeAuthorizer(nodeGraph.graph, {
        ready: nodeGraph.start(),
        selectors: (options.selectors ?? true) && (options.nodeSelectors ?? true),
      });
  const { abac, webhook } = options;
  if (abac) factories.ABAC = () => new AbacAuthorizer(abac);
  if (webhook)
    factories.Webhook = () => {
      const transport = new WebhookTransport(webhook.connection, webhook.timeoutMs);
      sinks.transports.push(transport);
      const logger = new Logger('authorization');
      return new WebhookAuthorizer(transport, {
        version: webhook.version,
        authorizedTtlMs: webhook.authorizedTtlMs,
        unauthorizedTtlMs: webhook.unauthorizedTtlMs,
        selectors: options.selectors ?? true,
        log: (m) => logger.warn(m),
        observe: (result, seconds, failOpen) => sinks.webhookCall?.('webhook', result, seconds, failOpen),
      });
    };
  return factories;
}

/** One authorizer of an --authorization-config file: a webhook made anew, the built-in modes made once. */
async function configuredAuthorizer(
  a: AuthorizerConfig,
  options: AuthorizationOptions,
  sinks: Sinks,
  builtins: Map<string, Authorizer>,
): Promise<NamedAuthorizer> {
  const { type, name } = a;
  if (a.webhook) {
    const w = a.webhook;
    if (w.connectionInfo.type !== 'KubeConfigFile') throw new Error(`authorizer ${name}: InClusterConfig`);
    let connection;
    try {
      connection = await readWebhookKubeconfig(w.connectionInfo.kubeConfigFile);
    } catch (e) {
      throw new Error(`authorizer ${name}: ${(e as Error).message}`);
    }
    const transport = new WebhookTransport(connection, w.timeoutMs);
    const logger = new Logger('authorization');
    const authorizer = new WebhookAuthorizer(transport, {
      version: w.subjectAccessReviewVersion,
      authorizedTtlMs: w.authorizedTtlMs,
      unauthorizedTtlMs: w.unauthorizedTtlMs,
      selectors: options.selectors ?? true,
      log: (m) => logger.warn(`${name}: ${m}`),
      observe: (result, seconds, failOpen) => sinks.webhookCall?.(name, result, seconds, failOpen),
      decisionOnError: w.failurePolicy === 'Deny' ? 'deny' : 'noOpinion',
      match: compileMatchConditions(w.matchConditions.map((c) => c.expression)),
      onMatch: (outcome) => sinks.matchCondition?.(type, name, outcome),
    });
    return { type, name, authorizer, close: () => transport.close() };
  }
  let authorizer = builtins.get(type);
  if (!authorizer) {
    const factory =
      modeFactories(options, sinks)[type as AuthorizationMode] ?? builtinFactories[type as AuthorizationMode];
    if (!factory)
      throw new Error(
        `authorizer type ${type} cannot be used in --authorization-config (ABAC reads --authorization-policy-file, which cannot be combined with it)`,
      );
    authorizer = await factory();
    builtins.set(type, authorizer);
  }
  return { type, name, authorizer };
}

/** kube labels its reload metrics with a hash of the server's identity */
const apiserverIdHash = `sha256:${createHash('sha256').update(`apiserver-${randomUUID()}`).digest('hex')}`;

/** The chain of an --authorization-config file: system:masters, then the file's authorizers (reloaded). */
async function configuredChain(
  file: string,
  options: AuthorizationOptions,
  sinks: Sinks,
): Promise<AuthorizerChain> {
  const builtins = new Map<string, Authorizer>();
  const logger = new Logger('authorization');
  const configured = new ConfiguredAuthorizers({
    file,
    check: checkMatchCondition,
    build: (config: AuthorizationConfiguration) =>
      Promise.all(config.authorizers.map((a) => configuredAuthorizer(a, options, sinks, builtins))),
    log: (m) => logger.warn(m),
    onReload: (status) => sinks.reload?.(status),
    onDecision: (type, name, decision) => sinks.decision?.(type, name, decision),
  });
  await configured.start();
  sinks.configured = configured;
  return new AuthorizerChain([new PrivilegedGroupsAuthorizer(), configured]);
}

/** A delegating server's chain: its host answers SubjectAccessReviews (delegated.ts). */
function hostChain(delegated: DelegatedAuthorization, options: AuthorizationOptions, sinks: Sinks) {
  const transport = new WebhookTransport(
    atHostPath(delegated.connection, SUBJECT_ACCESS_REVIEW_PATH),
    DELEGATED_TIMEOUT_MS,
  );
  sinks.transports.push(transport);
  const logger = new Logger('authorization');
  return delegatedChain(delegated, transport, {
    selectors: options.selectors ?? true,
    log: (m) => logger.warn(`host: ${m}`),
    observe: (result, seconds, failOpen) => sinks.webhookCall?.('webhook', result, seconds, failOpen),
  });
}

/**
 * Gives authorization.k8s.io's access reviews their answers and the webhook its metrics; closes the webhook's
 * connections at the end.
 */
class AccessReviews implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly virtual: VirtualKinds,
    private readonly chain: AuthorizerChain,
    private readonly sinks: Sinks,
    private readonly selectors: boolean,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    // kube names the webhook of --authorization-webhook-config-file "webhook"
    const metrics = this.metrics();
    if (metrics) {
      this.sinks.webhookCall = (name, result, s, failOpen) =>
        metrics.authorizationWebhook(name, result, s, failOpen);
      this.sinks.decision = (type, name, decision) => metrics.authorizationDecision(type, name, decision);
      this.sinks.matchCondition = (type, name, outcome) =>
        metrics.authorizationMatchCondition(type, name, outcome);
      this.sinks.reload = (status) => metrics.authorizationConfigReload(status, apiserverIdHash);
    }
    const o = { selectors: this.selectors };
    this.virtual.provide(subjectAccessReviewDefinition, subjectAccessReview(this.chain, o));
    this.virtual.provide(localSubjectAccessReviewDefinition, localSubjectAccessReview(this.chain, o));
    this.virtual.provide(selfSubjectAccessReviewDefinition, selfSubjectAccessReview(this.chain, o));
    this.virtual.provide(selfSubjectRulesReviewDefinition, selfSubjectRulesReview(this.chain));
  }

  onModuleDestroy(): void {
    for (const t of this.sinks.transports) t.close();
    this.sinks.configured?.stop();
  }

  /** the server's metrics, when a module provides them (not in every composition) */
  private metrics(): ApiMetrics | undefined {
    try {
      return this.moduleRef.get(ApiMetrics, { strict: false });
    } catch {
      return undefined;
    }
  }
}

/** The RBAC policy is read whatever the modes: escalation checks of RBAC writes use it (as kube's storage). */
class RbacLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(RbacInformers) private readonly informers: RbacInformers) {}
  onApplicationBootstrap(): void {
    void this.informers.start();
  }
  onApplicationShutdown(): void {
    this.informers.stop();
  }
}

/** The Node authorizer's graph starts with the Node mode (if any) and stops with the server. */
class NodeGraphLifecycle implements OnApplicationShutdown {
  constructor(@Inject(NodeGraphInformer) private readonly informer: NodeGraphInformer) {}
  onApplicationShutdown(): void {
    this.informer.stop();
  }
}

/**
 * The authorizer chain: system:masters first, then --authorization-mode (kube's default Node,RBAC) or the
 * authorizers of --authorization-config; anything no authorizer allows is forbidden.
 */
@Global()
@Module({})
export class AuthorizationModule {
  static forRoot(options: AuthorizationOptions): DynamicModule {
    const sinks: Sinks = { transports: [] };
    return {
      module: AuthorizationModule,
      providers: [
        {
          provide: RbacInformers,
          useFactory: (cache: WatchCache) => new RbacInformers(cache),
          inject: [WatchCache],
        },
        {
          provide: NodeGraphInformer,
          useFactory: (cache: WatchCache) => new NodeGraphInformer(cache),
          inject: [WatchCache],
        },
        NodeGraphLifecycle,
        {
          provide: AuthorizerChain,
          useFactory: (rbac: RbacInformers, nodeGraph: NodeGraphInformer) => {
            sinks.rbac = rbac;
            sinks.nodeGraph = nodeGraph;
            if (options.delegated) return hostChain(options.delegated, options, sinks);
            return options.configFile
              ? configuredChain(options.configFile, options, sinks)
              : authorizerChain(options.modes, modeFactories(options, sinks), (type, name, decision) =>
                  sinks.decision?.(type, name, decision),
                );
          },
          inject: [RbacInformers, NodeGraphInformer],
        },
        {
          provide: RbacEscalationCheck,
          useFactory: (rbac: RbacInformers, chain: AuthorizerChain) =>
            new RbacEscalationCheck(
              rbac.policy,
              () => chain,
              () => rbac.start(),
            ),
          inject: [RbacInformers, AuthorizerChain],
        },
        RbacLifecycle,
        {
          provide: AccessReviews,
          useFactory: (virtual: VirtualKinds, chain: AuthorizerChain, moduleRef: ModuleRef) =>
            new AccessReviews(virtual, chain, sinks, options.selectors ?? true, moduleRef),
          inject: [VirtualKinds, AuthorizerChain, ModuleRef],
        },
      ],
      exports: [AuthorizerChain, RbacEscalationCheck, RbacInformers],
    };
  }
}
