/**
 * An aggregated server keeps its own APIServices in its host (--apiservice-kubeconfig, --apiservice-service):
 * one `<version>.<group>` per group/version of its CRDs it serves, naming the host's Service, trusting this
 * server's serving CA, with the configured priorities. Written by server-side apply (field manager
 * `pgkube-apiservice`, forced: this server owns them), so every replica may write the same thing; ones it made
 * whose group/version is no longer served are deleted. Done on every change of what is served, and every
 * minute (the host may have lost them).
 */
import { stringify } from 'yaml';
import type { ResourceDefinition, Registry } from '../registry/index.js';
import { WebhookError, type WebhookTransport } from '../webhook/index.js';
import { apiServiceName, type APIService } from '../kinds/index.js';

const MANAGER = 'pgkube-apiservice';
/** on our APIServices in the host: which Service's server made them (`<namespace>.<name>`) */
export const REGISTERED_FOR_LABEL = 'apiregistration.pgkube.io/registered-for';
const RESYNC_MS = 60_000;
const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';

export interface SelfRegistrationOptions {
  service: { namespace: string; name: string; port: number };
  /** PEM: the CA the host must trust for this server's serving certificate */
  caBundle: string;
  groupPriorityMinimum: number;
  versionPriority: number;
}

/** The group/versions of served CRD kinds (built-in groups are the host's own). */
export function registeredGroupVersions(
  served: readonly ResourceDefinition[],
): Array<{ group: string; version: string }> {
  const seen = new Map<string, { group: string; version: string }>();
  for (const def of served) {
    if (!def.declaredServing) continue;
    for (const version of def.versions) seen.set(`${def.group}/${version}`, { group: def.group, version });
  }
  return [...seen.values()].sort((a, b) =>
    apiServiceName(a.group, a.version).localeCompare(apiServiceName(b.group, b.version)),
  );
}

export function desiredRegistration(
  gv: { group: string; version: string },
  o: SelfRegistrationOptions,
): APIService {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: {
      name: apiServiceName(gv.group, gv.version),
      labels: { [REGISTERED_FOR_LABEL]: `${o.service.namespace}.${o.service.name}` },
    },
    spec: {
      group: gv.group,
      version: gv.version,
      service: { namespace: o.service.namespace, name: o.service.name, port: o.service.port },
      caBundle: Buffer.from(o.caBundle).toString('base64'),
      groupPriorityMinimum: o.groupPriorityMinimum,
      versionPriority: o.versionPriority,
    },
  };
}

export class SelfRegistration {
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly host: WebhookTransport,
    private readonly registry: Registry,
    private readonly options: SelfRegistrationOptions,
    private readonly log: (message: string) => void,
  ) {}

  start(): void {
    this.unsubscribe = this.registry.subscribe(() => this.kick());
    this.timer = setInterval(() => this.kick(), RESYNC_MS);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    await this.running;
    this.host.close();
  }

  /** Resolves once no sync is pending (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sync()
      .catch((e: Error) => {
        this.log(`registering APIServices in the host: ${describe(e)}; retrying`);
        setTimeout(() => this.kick(), 5000).unref();
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async sync(): Promise<void> {
    const wanted = registeredGroupVersions(this.registry.definitions).map((gv) =>
      desiredRegistration(gv, this.options),
    );
    for (const apiService of wanted) {
      await this.host.request(
        'PATCH',
        `${APISERVICES}/${apiService.metadata.name}?fieldManager=${MANAGER}&force=true`,
        { text: stringify(apiService), contentType: 'application/apply-patch+yaml' },
        () => undefined,
      );
    }
    const selector = encodeURIComponent(
      `${REGISTERED_FOR_LABEL}=${this.options.service.namespace}.${this.options.service.name}`,
    );
    const ours = await this.host.get(`${APISERVICES}?labelSelector=${selector}`, (text) =>
      ((JSON.parse(text) as { items?: APIService[] }).items ?? []).map((a) => a.metadata.name!),
    );
    const keep = new Set(wanted.map((a) => a.metadata.name));
    for (const name of ours.filter((n) => !keep.has(n))) {
      await this.host
        .request('DELETE', `${APISERVICES}/${name}`, undefined, () => undefined)
        .catch((e: unknown) => {
          if (!(e instanceof WebhookError && e.status === 404)) throw e;
        });
    }
  }
}

function describe(e: Error): string {
  return e instanceof WebhookError && e.statusMessage ? `${e.message}: ${e.statusMessage}` : e.message;
}
