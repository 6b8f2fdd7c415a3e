/**
 * The delegating server's authentication flags, read at start (kube's DelegatingAuthenticationOptions):
 * `--authentication-kubeconfig` names the host; bearer tokens no local authenticator knows are reviewed there
 * (TokenReview authentication.k8s.io/v1), and unless `--authentication-skip-lookup` the host's
 * extension-apiserver-authentication ConfigMap is read now: a host that cannot be read stops the start unless
 * `--authentication-tolerate-lookup-failure`.
 */
import {
  atHostPath,
  readWebhookKubeconfig,
  WebhookTransport,
  type WebhookConnection,
} from '../../webhook/index.js';
import type { WebhookOptions } from '../flags.js';
import { HostTrust, type HostTrustChoice } from './host-trust.js';

/** kube's delegating TokenRequestTimeout and the lookup's bound */
const HOST_TIMEOUT_MS = 10_000;
export const TOKEN_REVIEW_PATH = '/apis/authentication.k8s.io/v1/tokenreviews';

export interface DelegatedAuthenticationFlags {
  /** --authentication-kubeconfig */
  kubeconfig?: string;
  /** the host already read (a sidecar's upstream) when no kubeconfig names it */
  connection?: WebhookConnection;
  /** --authentication-token-webhook-cache-ttl (kube's delegating default: 10s) */
  cacheTtlMs: number;
  /** --authentication-skip-lookup */
  skipLookup: boolean;
  /** --authentication-tolerate-lookup-failure */
  tolerateLookupFailure: boolean;
}

export interface DelegatedAuthentication {
  /** the host as a token webhook */
  webhook: WebhookOptions;
  /** the host's trust, followed; unset when it is not looked up (skipped, or every flag given) */
  hostTrust?: HostTrust;
}

/** The host's kubeconfig, read with its flag named in any error. */
export async function hostConnection(file: string, flag: string): Promise<WebhookConnection> {
  try {
    return await readWebhookKubeconfig(file);
  } catch (e) {
    throw new Error(`${flag}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function loadDelegatedAuthentication(
  flags: DelegatedAuthenticationFlags,
  choice: HostTrustChoice,
  log: (message: string) => void,
): Promise<DelegatedAuthentication> {
  const connection =
    flags.connection ?? (await hostConnection(flags.kubeconfig ?? '', '--authentication-kubeconfig'));
  const loaded: DelegatedAuthentication = {
    webhook: {
      connection: atHostPath(connection, TOKEN_REVIEW_PATH),
      version: 'v1',
      cacheTtlMs: flags.cacheTtlMs,
      timeoutMs: HOST_TIMEOUT_MS,
      // kube's aggregated servers have no API audiences: the host judges tokens for its own
      sendAudiences: false,
    },
  };
  if (flags.skipLookup || (!choice.clientCa && !choice.requestHeader)) return loaded;
  const hostTrust = new HostTrust({
    ...choice,
    transport: new WebhookTransport(connection, HOST_TIMEOUT_MS),
    log,
  });
  try {
    await hostTrust.load();
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (!flags.tolerateLookupFailure)
      throw new Error(`unable to load configmap based request-header-client-ca-file: ${why}`);
    // kube's words
    log(`Error looking up in-cluster authentication configuration: ${why}`);
    log('Continuing without authentication configuration. This may treat all requests as anonymous.');
    log(
      'To require authentication configuration lookup to succeed, set --authentication-tolerate-lookup-failure=false',
    );
  }
  loaded.hostTrust = hostTrust;
  return loaded;
}
