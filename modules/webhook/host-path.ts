/**
 * A kubeconfig of a whole API server (the host of a delegating server: --authentication-kubeconfig,
 * --authorization-kubeconfig, --kubeconfig) names its base URL; its reviews are POSTed to API paths under it.
 */
import type { WebhookConnection } from './kubeconfig.js';

/** The same connection aimed at `path` (and its query, if any) under the server's URL (after its own path, as client-go appends). */
export function atHostPath(connection: WebhookConnection, path: string): WebhookConnection {
  const url = new URL(connection.url.href);
  const [pathname, query = ''] = path.split('?', 2);
  url.pathname = url.pathname.replace(/\/+$/, '') + pathname;
  url.search = query;
  return { ...connection, url };
}
