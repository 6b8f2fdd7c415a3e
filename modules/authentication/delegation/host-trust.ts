/**
 * Whom a delegating server trusts, as its host says (kube's DelegatingAuthenticationOptions): the host's
 * `kube-system/extension-apiserver-authentication` ConfigMap names the client CA (`client-ca-file`) and the
 * authenticating proxy (`requestheader-client-ca-file`, the `requestheader-*` lists as JSON arrays). It is read
 * once at start (a failure stops the start, unless tolerated) and then polled: a changed CA or list is used by
 * the next request, no restart. A ConfigMap that is gone trusts nothing from the host (kube clears it too); a
 * read that fails or a ConfigMap that does not parse keeps what was trusted, and is logged.
 */
import { isPlainObject } from '../../api/index.js';
import { WebhookError, type WebhookTransport } from '../../webhook/index.js';
import { CertificatePool } from '../certificate-pool.js';
import type { RequestHeaderOptions } from '../request-header.js';
import { TRUST_CONFIGMAP, TRUST_NAMESPACE } from '../authentication-trust.js';

export const HOST_TRUST_PATH = `/api/v1/namespaces/${TRUST_NAMESPACE}/configmaps/${TRUST_CONFIGMAP}`;
/** kube follows the ConfigMap with an informer; a poll this often is close enough for CA rotation */
const POLL_MS = 10_000;

export interface HostTrustState {
  clientCa?: CertificatePool;
  requestHeader?: RequestHeaderOptions;
}

/** What to take from the host: only what no flag gave (kube: an explicit flag wins). */
export interface HostTrustChoice {
  /** no --client-ca-file */
  clientCa: boolean;
  /** no --requestheader-client-ca-file */
  requestHeader: boolean;
  /** trusted beside the host's client CA (pgkube's data dir CA, which signs its own kubeconfigs) */
  ownClientCa?: CertificatePool;
}

function list(data: Record<string, string>, key: string): string[] {
  const raw = data[key];
  if (raw === undefined || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${key} is not a JSON list: ${JSON.stringify(raw.slice(0, 100))}`);
  }
  if (!Array.isArray(parsed) || parsed.some((v) => typeof v !== 'string'))
    throw new Error(`${key} is not a JSON list of strings`);
  return parsed as string[];
}

/** The trust the ConfigMap's `data` names (undefined: there is no ConfigMap); throws on a malformed value. */
export function hostTrustFrom(
  data: Readonly<Record<string, string>> | undefined,
  choice: HostTrustChoice,
): HostTrustState {
  const state: HostTrustState = {};
  const d = data ?? {};
  if (choice.clientCa) {
    const pem = [d['client-ca-file'] ?? '', choice.ownClientCa?.pem ?? ''].join('\n');
    if (pem.trim()) state.clientCa = new CertificatePool(pem, `${TRUST_CONFIGMAP} client-ca-file`);
  }
  if (choice.requestHeader && d['requestheader-client-ca-file']?.trim()) {
    state.requestHeader = {
      ca: new CertificatePool(
        d['requestheader-client-ca-file'],
        `${TRUST_CONFIGMAP} requestheader-client-ca-file`,
      ),
      allowedNames: list(d, 'requestheader-allowed-names'),
      usernameHeaders: list(d, 'requestheader-username-headers'),
      uidHeaders: list(d, 'requestheader-uid-headers'),
      groupHeaders: list(d, 'requestheader-group-headers'),
      extraHeaderPrefixes: list(d, 'requestheader-extra-headers-prefix'),
    };
  }
  return state;
}

/** The ConfigMap's data, undefined when the host has none (404). */
function readData(body: string): Record<string, string> {
  const object: unknown = JSON.parse(body);
  if (!isPlainObject(object) || object.kind !== 'ConfigMap') throw new Error('the answer is no ConfigMap');
  const data = isPlainObject(object.data) ? object.data : {};
  return Object.fromEntries(
    Object.entries(data).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

export interface HostTrustOptions extends HostTrustChoice {
  transport: Pick<WebhookTransport, 'get'>;
  /** how often the ConfigMap is read again (default 10 s) */
  pollMs?: number;
  log: (message: string) => void;
}

export class HostTrust {
  private state: HostTrustState = {};
  /** the data the state was made from: an unchanged ConfigMap keeps its pools (and their per-connection caches) */
  private seen?: string;
  private timer?: NodeJS.Timeout;
  private readonly listeners: ((state: HostTrustState) => void)[] = [];

  constructor(private readonly options: HostTrustOptions) {
    // the own CA alone until the host has been heard
    this.state = hostTrustFrom(undefined, options);
  }

  get readsClientCa(): boolean {
    return this.options.clientCa;
  }

  get readsRequestHeader(): boolean {
    return this.options.requestHeader;
  }

  /** the client CA now (the host's and the own one) */
  readonly clientCa = (): CertificatePool | undefined => this.state.clientCa;
  /** the proxy's settings now; undefined: the host trusts no proxy */
  readonly requestHeader = (): RequestHeaderOptions | undefined => this.state.requestHeader;

  /** Called with the new state whenever the ConfigMap changed what is trusted. */
  onChange(listener: (state: HostTrustState) => void): void {
    this.listeners.push(listener);
  }

  /** Reads the ConfigMap once; rejects with why it could not (the state is then kept). */
  async load(): Promise<void> {
    let data: Record<string, string> | undefined;
    try {
      data = await this.options.transport.get(HOST_TRUST_PATH, readData);
    } catch (e) {
      if (!(e instanceof WebhookError && e.status === 404)) throw new Error(reason(e));
    }
    const key = JSON.stringify(data ?? null);
    if (key === this.seen) return;
    this.state = hostTrustFrom(data, this.options);
    this.seen = key;
    for (const listener of this.listeners) listener(this.state);
  }

  /** Reads the ConfigMap again every poll until stop(). */
  follow(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.load().catch((e: Error) =>
        this.options.log(`${TRUST_NAMESPACE}/${TRUST_CONFIGMAP} of the host: ${e.message}`),
      );
    }, this.options.pollMs ?? POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Why the host could not be read: its Status's message when it answered one, else the transport's words. */
function reason(e: unknown): string {
  if (e instanceof WebhookError) return e.statusMessage ?? e.message;
  return e instanceof Error ? e.message : String(e);
}
