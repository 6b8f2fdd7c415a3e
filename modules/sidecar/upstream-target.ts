/**
 * The upstream as the proxy dials it (modules/proxy's Upstream: address, TLS name, CA, client certificate), the
 * path prefix of its URL, and this server's own credentials there (a bearer token, read again as its file
 * rotates, or basic auth), added only where the sidecar speaks for itself or for a user it impersonates.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { Upstream } from '../proxy/index.js';
import { bearerOf, type WebhookConnection } from '../webhook/index.js';

export interface UpstreamTarget {
  upstream: Upstream;
  /** the server URL's own path ('' for most), put before every forwarded path as client-go does */
  prefix: string;
  /** this server's Authorization header (none when it presents a client certificate only) */
  credentials(): OutgoingHttpHeaders;
}

export function upstreamTarget(connection: WebhookConnection): UpstreamTarget {
  const url = connection.url;
  const upstream: Upstream = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 443),
    serverName: connection.serverName,
    ca: connection.ca,
    insecureSkipTLSVerify: connection.insecureSkipTlsVerify,
    clientCert:
      connection.cert && connection.key ? { cert: connection.cert, key: connection.key } : undefined,
  };
  return {
    upstream,
    prefix: url.pathname.replace(/\/+$/, ''),
    credentials: () => {
      const token = bearerOf(connection);
      if (token) return { authorization: `Bearer ${token}` };
      const basic = connection.basic;
      if (basic)
        return {
          authorization: `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}`,
        };
      return {};
    },
  };
}
