/**
 * kube-apiserver's cluster-authentication-trust controller: the ConfigMap
 * `kube-system/extension-apiserver-authentication` tells aggregated API servers and webhooks whom this
 * server trusts: `client-ca-file` (PEM), and with an authenticating proxy `requestheader-client-ca-file` and
 * the `requestheader-*` lists as JSON arrays. It is merged with what is there (other replicas and servers
 * add theirs: CA bundles and lists become unions, certificates expired over 5 minutes ago drop out), written
 * at start, again whenever someone changes or deletes it, and checked once a minute.
 */
import { isDeepStrictEqual } from 'node:util';
import type { X509Certificate } from 'node:crypto';
import { ApiError, systemContext, type KubeObject } from '../api/index.js';
import { Informer, WorkQueue } from '../watch/index.js';
import { storageKey, type GenericStore, type Registry } from '../registry/index.js';
import type { WatchCache } from '../watch/index.js';
import { certificatesPem, parseCertificates, type CertificatePool } from './certificate-pool.js';
import type { RequestHeaderOptions } from './request-header.js';

export const TRUST_NAMESPACE = 'kube-system';
export const TRUST_CONFIGMAP = 'extension-apiserver-authentication';
const KEY = `${TRUST_NAMESPACE}/${TRUST_CONFIGMAP}`;
const RESYNC_MS = 60_000;
const EXPIRY_SLACK_MS = 5 * 60_000;

export interface AuthenticationTrust {
  /** the client CA (--client-ca-file, or the data dir's CA) */
  clientCa?: CertificatePool;
  /** the authenticating proxy (--requestheader-*) */
  requestHeader?: RequestHeaderOptions;
}

/** the keys holding JSON lists, and where this server's values come from */
const LISTS = [
  ['requestheader-username-headers', 'usernameHeaders'],
  ['requestheader-uid-headers', 'uidHeaders'],
  ['requestheader-group-headers', 'groupHeaders'],
  ['requestheader-extra-headers-prefix', 'extraHeaderPrefixes'],
  ['requestheader-allowed-names', 'allowedNames'],
] as const;

/** A list someone else wrote; one that is no JSON list of strings is replaced rather than kept forever. */
function storedList(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function storedCertificates(pem: string | undefined): X509Certificate[] {
  try {
    return pem ? parseCertificates(pem) : [];
  } catch {
    return [];
  }
}

/** kube's combineCertLists: both bundles, certificates expired over 5 minutes ago dropped, each once. */
function combinedPem(stored: string | undefined, own: CertificatePool | undefined, now: number): string {
  const out: X509Certificate[] = [];
  for (const cert of [...storedCertificates(stored), ...(own?.certificates ?? [])]) {
    if (Date.parse(cert.validTo) <= now - EXPIRY_SLACK_MS) continue;
    if (!out.some((c) => c.raw.equals(cert.raw))) out.push(cert);
  }
  return certificatesPem(out);
}

/** The ConfigMap's data: what is stored combined with what this server trusts (kube's getConfigMapDataFor). */
export function trustData(
  stored: Readonly<Record<string, string>>,
  trust: AuthenticationTrust,
  now = Date.now(),
): Record<string, string> {
  const data: Record<string, string> = {};
  const clientCa = combinedPem(stored['client-ca-file'], trust.clientCa, now);
  if (clientCa) data['client-ca-file'] = clientCa;
  const proxyCa = combinedPem(stored['requestheader-client-ca-file'], trust.requestHeader?.ca, now);
  if (!proxyCa) return data;
  data['requestheader-client-ca-file'] = proxyCa;
  for (const [key, field] of LISTS) {
    const own = trust.requestHeader?.[field] ?? [];
    data[key] = JSON.stringify([...new Set([...storedList(stored[key]), ...own])]);
  }
  return data;
}

export class AuthenticationTrustPublisher {
  private readonly queue: WorkQueue;
  private informer?: Informer;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly registry: Registry,
    private readonly generic: GenericStore,
    private readonly cache: WatchCache,
    private readonly trust: AuthenticationTrust,
    private readonly log: (message: string) => void,
  ) {
    this.queue = new WorkQueue(
      () => this.sync(),
      (m) => this.log(`${TRUST_CONFIGMAP}: ${m}`),
    );
  }

  private get configMaps() {
    return this.registry.storedKind('', 'configmaps')!;
  }

  /**
   * Writes the ConfigMap now: at start, before the server says it serves, so clients (and the other replicas'
   * watchers) find it in place. A failure is logged; `follow` tries again.
   */
  async publish(): Promise<void> {
    await this.sync().catch((e: Error) => this.log(`${TRUST_CONFIGMAP}: ${e.message}; retrying`));
  }

  /** Keeps the ConfigMap until stop(): resolves once it follows it (after the watch cache has synced). */
  async follow(): Promise<void> {
    this.informer = new Informer(this.cache, storageKey(this.configMaps), (e) => {
      const { namespace, name } = e.object.metadata;
      if (namespace === TRUST_NAMESPACE && name === TRUST_CONFIGMAP) this.queue.add(KEY);
    });
    await this.informer.start();
    this.queue.add(KEY);
    this.timer = setInterval(() => this.queue.add(KEY), RESYNC_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.informer?.stop();
    await this.queue.stop();
  }

  /** Resolves once no write is pending (tests). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private async sync(): Promise<void> {
    const current = await this.generic
      .get(this.configMaps, TRUST_NAMESPACE, TRUST_CONFIGMAP)
      .catch(ignore404);
    if (current && isDeepStrictEqual(current.data ?? {}, trustData(dataOf(current), this.trust))) return;
    await this.ensureNamespace();
    await this.generic.update(
      systemContext(),
      this.configMaps,
      TRUST_NAMESPACE,
      TRUST_CONFIGMAP,
      (stored) => {
        const next: KubeObject = stored
          ? structuredClone(stored)
          : {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: TRUST_CONFIGMAP, namespace: TRUST_NAMESPACE },
            };
        next.data = trustData(dataOf(stored), this.trust);
        return next;
      },
      { forceAllowCreate: true },
    );
  }

  /** kube's createNamespaceIfNeeded: the publisher may run before the built-in namespaces are made */
  private async ensureNamespace(): Promise<void> {
    const namespaces = this.registry.storedKind('', 'namespaces')!;
    if (await this.generic.get(namespaces, '', TRUST_NAMESPACE).catch(ignore404)) return;
    await this.generic
      .create(
        systemContext(),
        namespaces,
        '',
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: TRUST_NAMESPACE } },
        {},
      )
      .catch((e: unknown) => {
        if (!(e instanceof ApiError && e.reason === 'AlreadyExists')) throw e;
      });
  }
}

function dataOf(object: KubeObject | undefined): Record<string, string> {
  return (object?.data as Record<string, string> | undefined) ?? {};
}

function ignore404(e: unknown): undefined {
  if (e instanceof ApiError && e.code === 404) return undefined;
  throw e;
}
