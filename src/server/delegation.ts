/**
 * A delegating server's host, read at start from the flags that name it (kube's delegating options): the
 * token reviews and trust of --authentication-kubeconfig, the SubjectAccessReviews of
 * --authorization-kubeconfig, the namespaces of --kubeconfig (default: the authentication kubeconfig). A
 * kubeconfig that does not read, or a host whose trust cannot be looked up, stops the start naming its flag.
 */
import { HostNamespaces, type NamespaceSource } from '../../modules/admission/index.js';
import {
  hostConnection,
  loadDelegatedAuthentication,
  type DelegatedAuthentication,
} from '../../modules/authentication/index.js';
import type { DelegatedAuthorization } from '../../modules/authorization/index.js';
import { WebhookTransport, type WebhookConnection } from '../../modules/webhook/index.js';
import type { Config } from '../config/config.js';
import type { ClientTrust } from './client-trust.js';

const HOST_TIMEOUT_MS = 10_000;

export interface Delegation {
  authentication?: DelegatedAuthentication;
  authorization?: DelegatedAuthorization;
  namespaces?: NamespaceSource;
}

/**
 * `upstream`: a sidecar's upstream cluster, the host of whatever no kubeconfig flag names (kube's delegating
 * options fall back to the in-cluster config the same way).
 */
export async function delegation(
  config: Config,
  trust: ClientTrust,
  warn: (message: string) => void,
  upstream?: WebhookConnection,
): Promise<Delegation> {
  const out: Delegation = {};
  const viaUpstream = upstream ? config.delegatedToUpstream : { authentication: false, authorization: false };
  if (config.authenticationKubeconfig || viaUpstream.authentication) {
    out.authentication = await loadDelegatedAuthentication(
      {
        kubeconfig: config.authenticationKubeconfig,
        connection: config.authenticationKubeconfig ? undefined : upstream,
        cacheTtlMs: config.authenticationTokenWebhookCacheTtlMs,
        skipLookup: config.authenticationSkipLookup,
        tolerateLookupFailure: config.authenticationTolerateLookupFailure,
      },
      // an explicit flag wins over the host's ConfigMap (kube); the data dir CA keeps signing our own clients
      {
        clientCa: !config.clientCaFile,
        requestHeader: !config.requestheaderClientCaFile,
        ownClientCa: trust.clientCa,
      },
      warn,
    );
  }
  if (config.authorizationKubeconfig || viaUpstream.authorization) {
    out.authorization = {
      connection: config.authorizationKubeconfig
        ? await hostConnection(config.authorizationKubeconfig, '--authorization-kubeconfig')
        : upstream!,
      authorizedTtlMs: config.authorizationWebhookCacheAuthorizedTtlMs,
      unauthorizedTtlMs: config.authorizationWebhookCacheUnauthorizedTtlMs,
      alwaysAllowPaths: config.authorizationAlwaysAllowPaths,
    };
  }
  const core = config.kubeconfig ?? config.authenticationKubeconfig;
  if (core) {
    const flag = config.kubeconfig ? '--kubeconfig' : '--authentication-kubeconfig';
    out.namespaces = new HostNamespaces(
      new WebhookTransport(await hostConnection(core, flag), HOST_TIMEOUT_MS),
    );
  } else if (upstream) {
    // a sidecar's custom resources live in the upstream's namespaces
    out.namespaces = new HostNamespaces(new WebhookTransport(upstream, HOST_TIMEOUT_MS));
  }
  return out;
}
