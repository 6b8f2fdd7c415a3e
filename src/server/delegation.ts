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
import { WebhookTransport } from '../../modules/webhook/index.js';
import type { Config } from '../config/config.js';
import type { ClientTrust } from './client-trust.js';

const HOST_TIMEOUT_MS = 10_000;

export interface Delegation {
  authentication?: DelegatedAuthentication;
  authorization?: DelegatedAuthorization;
  namespaces?: NamespaceSource;
}

export async function delegation(
  config: Config,
  trust: ClientTrust,
  warn: (message: string) => void,
): Promise<Delegation> {
  const out: Delegation = {};
  if (config.authenticationKubeconfig) {
    out.authentication = await loadDelegatedAuthentication(
      {
        kubeconfig: config.authenticationKubeconfig,
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
  if (config.authorizationKubeconfig) {
    out.authorization = {
      connection: await hostConnection(config.authorizationKubeconfig, '--authorization-kubeconfig'),
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
  }
  return out;
}
