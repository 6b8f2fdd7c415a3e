import {
  Inject,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
  type Provider,
} from '@nestjs/common';
import { WebhookTransport, type WebhookConnection } from '../webhook/index.js';
import { SelfRegistration, type SelfRegistrationOptions } from './self-registration.js';
import { REMOTE_APIS } from '../discovery/index.js';
import { DELEGATES } from '../endpoints/index.js';
import { UpstreamAgents } from '../proxy/index.js';
import { GenericStore, Registry } from '../registry/index.js';
import { WatchCache } from '../watch/index.js';
import { AvailabilityController } from './availability.js';
import { LocalApiServices } from './local-apiservices.js';
import { ProxyDelegate } from './proxy-delegate.js';
import { RemoteApiServices, type ProxyClientCertificate } from './remote-apiservices.js';
import { RemoteApisView } from './remote-apis.js';

export interface AggregationOptions {
  /** an aggregation host (the standalone server); an aggregated server (--builtin-apis=false) keeps none */
  host: boolean;
  /** what the host presents to backends (--proxy-client-cert-file, or the generated front-proxy client) */
  proxyClient?: ProxyClientCertificate;
  /** an aggregated server's own APIServices in its host (--apiservice-kubeconfig, --apiservice-service) */
  registration?: { host: WebhookConnection; options: SelfRegistrationOptions };
}

/** how long one request to the host may take, retries included */
const HOST_TIMEOUT_MS = 10_000;

/** Keeps this server's APIServices in its host from bootstrap to shutdown. */
class RegistrationLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(SelfRegistration) private readonly registration: SelfRegistration) {}
  onApplicationBootstrap(): void {
    this.registration.start();
  }
  async beforeApplicationShutdown(): Promise<void> {
    await this.registration.stop();
  }
}

/** Starts the aggregation layer once the server is up (it waits for the watch cache); stops before storage goes. */
class AggregationLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(LocalApiServices) private readonly local: LocalApiServices,
    @Inject(RemoteApiServices) private readonly remote: RemoteApiServices,
    @Inject(AvailabilityController) private readonly availability: AvailabilityController,
  ) {}

  onApplicationBootstrap(): void {
    // not awaited: they wait for the watch cache, which another module's bootstrap starts
    this.local.start().catch((e: Error) => new Logger('local-apiservices').error(e.message));
    this.remote
      .start()
      .then(() => this.availability.start())
      .catch((e: Error) => new Logger('aggregation').error(e.message));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.availability.stop();
    this.remote.stop();
    await this.local.stop();
  }
}

/**
 * kube-aggregator's part of the server: the APIServices of the group/versions served here (local ones), the
 * remote ones (routes, availability, the proxy) and what discovery merges from their backends. kube-apiserver
 * runs this itself, so `--controllers` does not turn it off.
 */
@Module({})
export class AggregationModule {
  static forRoot(options: AggregationOptions): DynamicModule {
    const log = (name: string) => (m: string) => new Logger(name).warn(m);
    const registration = options.registration;
    const registering: Provider[] = registration
      ? [
          {
            provide: SelfRegistration,
            useFactory: (registry: Registry) =>
              new SelfRegistration(
                new WebhookTransport(registration.host, HOST_TIMEOUT_MS),
                registry,
                registration.options,
                log('apiservice-registration'),
              ),
            inject: [Registry],
          },
          RegistrationLifecycle,
        ]
      : [];
    if (!options.host) return { module: AggregationModule, providers: registering };
    return {
      module: AggregationModule,
      global: true,
      providers: [
        ...registering,
        {
          provide: LocalApiServices,
          useFactory: (registry: Registry, generic: GenericStore, cache: WatchCache) =>
            new LocalApiServices(registry, generic, cache, log('local-apiservices')),
          inject: [Registry, GenericStore, WatchCache],
        },
        {
          provide: RemoteApiServices,
          useFactory: (registry: Registry, cache: WatchCache) =>
            new RemoteApiServices(registry, cache, new UpstreamAgents(), options.proxyClient),
          inject: [Registry, WatchCache],
        },
        {
          provide: AvailabilityController,
          useFactory: (remote: RemoteApiServices, registry: Registry, generic: GenericStore) =>
            new AvailabilityController(remote, registry, generic, log('apiservice-availability')),
          inject: [RemoteApiServices, Registry, GenericStore],
        },
        {
          provide: DELEGATES,
          useFactory: (remote: RemoteApiServices, availability: AvailabilityController) => [
            new ProxyDelegate(remote, availability),
          ],
          inject: [RemoteApiServices, AvailabilityController],
        },
        {
          provide: REMOTE_APIS,
          useFactory: (remote: RemoteApiServices) => new RemoteApisView(remote),
          inject: [RemoteApiServices],
        },
        AggregationLifecycle,
      ],
      exports: [LocalApiServices, RemoteApiServices, DELEGATES, REMOTE_APIS],
    };
  }
}
