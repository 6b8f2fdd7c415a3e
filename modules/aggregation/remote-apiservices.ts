/**
 * The APIServices served elsewhere (`spec.service` set), read from the watch cache: which group/version goes
 * to which backend, whether it is Available, and the backend's address and trust now (its Service, Endpoints
 * or EndpointSlices resolved at each request, as kube resolves them). Listeners hear of every change that may
 * move a route or its availability.
 */
import { Buffer } from 'node:buffer';
import type { KubeObject } from '../api/index.js';
import { apiServiceCondition, AVAILABLE_CONDITION, type APIService } from '../kinds/index.js';
import type { UpstreamAgents, Upstream } from '../proxy/index.js';
import { storageKey, type Registry } from '../registry/index.js';
import { Informer, type WatchCache } from '../watch/index.js';
import { resolveService, type Resolution, type ServiceObjects } from './service-resolution.js';

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

export interface ProxyClientCertificate {
  cert: string;
  key: string;
}

export class RemoteApiServices {
  private readonly informers: Informer[] = [];
  private readonly byGroupVersion = new Map<string, APIService>();
  private readonly listeners = new Set<(names: readonly string[]) => void>();
  private apiServices?: Informer;
  private services?: Informer;
  private endpoints?: Informer;
  private slices?: Informer;

  constructor(
    private readonly registry: Registry,
    private readonly cache: WatchCache,
    readonly agents: UpstreamAgents,
    private readonly proxyClient?: ProxyClientCertificate,
  ) {}

  async start(): Promise<void> {
    const informer = (group: string, resource: string, onEvent: (o: KubeObject) => void) => {
      const def = this.registry.storedKind(group, resource);
      if (!def) return undefined;
      const i = new Informer(this.cache, storageKey(def), (e) => onEvent(e.object));
      this.informers.push(i);
      return i;
    };
    this.apiServices = informer('apiregistration.k8s.io', 'apiservices', (o) => this.apiServiceChanged(o));
    const byService = (o: KubeObject) => this.serviceChanged(o.metadata.namespace!, o.metadata.name!);
    this.services = informer('', 'services', byService);
    this.endpoints = informer('', 'endpoints', byService);
    this.slices = informer('discovery.k8s.io', 'endpointslices', (o) => {
      const service = o.metadata.labels?.[SERVICE_NAME_LABEL];
      if (service) this.serviceChanged(o.metadata.namespace!, service);
    });
    for (const i of this.informers) await i.start();
  }

  stop(): void {
    for (const i of this.informers) i.stop();
    this.agents.close();
  }

  /** Called with the names of APIServices whose route, trust or backend may have changed. */
  onChange(listener: (names: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The remote APIService serving `group/version`, if one does. */
  route(group: string, version: string): APIService | undefined {
    return this.byGroupVersion.get(`${group}/${version}`);
  }

  /** Every remote APIService now. */
  list(): APIService[] {
    return [...this.byGroupVersion.values()];
  }

  get(name: string): APIService | undefined {
    const found = this.apiServices?.get('', name) as APIService | undefined;
    return found && isRemote(found) ? found : undefined;
  }

  static available(apiService: APIService): boolean {
    return apiServiceCondition(apiService, AVAILABLE_CONDITION)?.status === 'True';
  }

  /** The Service, Endpoints and EndpointSlices an APIService names. */
  serviceObjects(apiService: APIService): ServiceObjects {
    const { namespace = '', name = '' } = apiService.spec?.service ?? {};
    return {
      service: this.services?.get(namespace, name),
      endpoints: this.endpoints?.get(namespace, name),
      slices: (this.slices?.list(namespace) ?? []).filter(
        (s) => s.metadata.labels?.[SERVICE_NAME_LABEL] === name,
      ),
    };
  }

  resolve(apiService: APIService): Resolution {
    const ref = apiService.spec?.service ?? {};
    return resolveService(
      { namespace: ref.namespace ?? '', name: ref.name ?? '', port: ref.port },
      this.serviceObjects(apiService),
    );
  }

  /**
   * The backend's address and how to trust it: its certificate must be for `<service>.<namespace>.svc` and
   * signed by `caBundle` (or not checked, with insecureSkipTLSVerify); the host presents its proxy client
   * certificate.
   */
  upstream(apiService: APIService, resolved: { host: string; port: number }): Upstream {
    const spec = apiService.spec ?? {};
    return {
      host: resolved.host,
      port: resolved.port,
      serverName: `${spec.service?.name}.${spec.service?.namespace}.svc`,
      ca: spec.caBundle ? Buffer.from(spec.caBundle, 'base64').toString('utf8') : undefined,
      insecureSkipTLSVerify: spec.insecureSkipTLSVerify === true,
      clientCert: this.proxyClient,
    };
  }

  /** The proxy client certificate (availability checks present it too). */
  get clientCertificate(): ProxyClientCertificate | undefined {
    return this.proxyClient;
  }

  private apiServiceChanged(object: KubeObject): void {
    // rebuilt from the informer: an event may remove, add or move a group/version
    this.byGroupVersion.clear();
    for (const o of this.apiServices!.list() as APIService[]) {
      if (!isRemote(o) || o.metadata.deletionTimestamp) continue;
      this.byGroupVersion.set(`${o.spec!.group ?? ''}/${o.spec!.version ?? ''}`, o);
    }
    this.emit([object.metadata.name!]);
  }

  private serviceChanged(namespace: string, name: string): void {
    const names = this.list()
      .filter((a) => a.spec?.service?.namespace === namespace && a.spec.service.name === name)
      .map((a) => a.metadata.name!);
    if (names.length > 0) this.emit(names);
  }

  private emit(names: readonly string[]): void {
    for (const listener of this.listeners) listener(names);
  }
}

export function isRemote(apiService: APIService): boolean {
  const service = apiService.spec?.service;
  return !!service && typeof service === 'object';
}
