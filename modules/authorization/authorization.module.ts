import {
  Global,
  Logger,
  Module,
  type DynamicModule,
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
import { WebhookTransport } from '../webhook/index.js';
import { AbacAuthorizer } from './abac.js';
import { AuthorizerChain } from './chain.js';
import type { LoadedAuthorization } from './flags.js';
import { authorizerChain, type AuthorizationMode, type DecisionObserver, type ModeFactory } from './modes.js';
import {
  localSubjectAccessReview,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
  subjectAccessReview,
} from './reviews.js';
import { WebhookAuthorizer } from './webhook.js';

export interface AuthorizationOptions extends LoadedAuthorization {
  /** --authorization-mode, in order (checked at parse time); empty: not given */
  modes: readonly string[];
  /** AuthorizeWithSelectors (beta, on by default): selectors reach the authorizers and the webhook */
  selectors?: boolean;
}

/** What the authorizers built at start report to, once the server's metrics exist (they are made later). */
interface Sinks {
  transports: WebhookTransport[];
  webhookCall?: (result: 'success' | 'timeout' | 'error' | 'canceled', seconds: number) => void;
  decision?: DecisionObserver;
}

/** The factories of the modes whose files were read at start (src/main.ts). */
function modeFactories(
  options: AuthorizationOptions,
  sinks: Sinks,
): Partial<Record<AuthorizationMode, ModeFactory>> {
  const factories: Partial<Record<AuthorizationMode, ModeFactory>> = {};
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
        observe: (result, seconds) => sinks.webhookCall?.(result, seconds),
      });
    };
  return factories;
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
      this.sinks.webhookCall = (result, s) => metrics.authorizationWebhook('webhook', result, s);
      this.sinks.decision = (type, name, decision) => metrics.authorizationDecision(type, name, decision);
    }
    const o = { selectors: this.selectors };
    this.virtual.provide(subjectAccessReviewDefinition, subjectAccessReview(this.chain, o));
    this.virtual.provide(localSubjectAccessReviewDefinition, localSubjectAccessReview(this.chain, o));
    this.virtual.provide(selfSubjectAccessReviewDefinition, selfSubjectAccessReview(this.chain, o));
    this.virtual.provide(selfSubjectRulesReviewDefinition, selfSubjectRulesReview(this.chain));
  }

  onModuleDestroy(): void {
    for (const t of this.sinks.transports) t.close();
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

/** The authorizer chain of --authorization-mode, system:masters first; anything no authorizer allows is forbidden. */
@Global()
@Module({})
export class AuthorizationModule {
  static forRoot(options: AuthorizationOptions): DynamicModule {
    const sinks: Sinks = { transports: [] };
    return {
      module: AuthorizationModule,
      providers: [
        {
          provide: AuthorizerChain,
          useFactory: () =>
            authorizerChain(options.modes, modeFactories(options, sinks), (type, name, decision) =>
              sinks.decision?.(type, name, decision),
            ),
        },
        {
          provide: AccessReviews,
          useFactory: (virtual: VirtualKinds, chain: AuthorizerChain, moduleRef: ModuleRef) =>
            new AccessReviews(virtual, chain, sinks, options.selectors ?? true, moduleRef),
          inject: [VirtualKinds, AuthorizerChain, ModuleRef],
        },
      ],
      exports: [AuthorizerChain],
    };
  }
}
