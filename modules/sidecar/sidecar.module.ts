import {
  Inject,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { REMOTE_APIS } from '../discovery/index.js';
import { UPSTREAM } from '../endpoints/index.js';
import { UpstreamAgents } from '../proxy/index.js';
import { Registry } from '../registry/index.js';
import type { WebhookConnection } from '../webhook/index.js';
import { UpstreamApis } from './upstream-apis.js';
import { UpstreamForwarder } from './upstream-forwarder.js';
import { upstreamTarget } from './upstream-target.js';

export interface SidecarOptions {
  /** the upstream cluster and this server's credentials there (src/main.ts reads them from the flags) */
  upstream: WebhookConnection;
}

/** Reads the upstream's groups before the server listens, and follows them until shutdown. */
class SidecarLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(UpstreamApis) private readonly apis: UpstreamApis,
    @Inject(UpstreamAgents) private readonly agents: UpstreamAgents,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.apis.start();
  }

  beforeApplicationShutdown(): void {
    this.apis.stop();
    this.agents.close();
  }
}

/**
 * Sidecar mode: the pipeline's upstream step (UPSTREAM) and the upstream's groups for merged discovery and
 * OpenAPI (REMOTE_APIS). With --builtin-apis=false only: the aggregation host, which provides REMOTE_APIS too,
 * is off then.
 */
@Module({})
export class SidecarModule {
  static forRoot(options: SidecarOptions): DynamicModule {
    const target = upstreamTarget(options.upstream);
    return {
      module: SidecarModule,
      global: true,
      providers: [
        { provide: UpstreamAgents, useFactory: () => new UpstreamAgents() },
        {
          provide: UPSTREAM,
          useFactory: (agents: UpstreamAgents, registry: Registry) =>
            new UpstreamForwarder(target, agents, registry),
          inject: [UpstreamAgents, Registry],
        },
        {
          provide: UpstreamApis,
          useFactory: (agents: UpstreamAgents, registry: Registry) => {
            const log = new Logger('sidecar');
            return new UpstreamApis(target, agents, registry, (m) => log.warn(m));
          },
          inject: [UpstreamAgents, Registry],
        },
        { provide: REMOTE_APIS, useExisting: UpstreamApis },
        SidecarLifecycle,
      ],
      exports: [UPSTREAM, REMOTE_APIS],
    };
  }
}
