/**
 * Upgrade requests (kubectl exec, attach, port-forward: `POST` + `Upgrade: SPDY/3.1`, or WebSocket) relayed byte
 * for byte: the request head is written to the upstream as the client sent it (credentials dropped, identity
 * added), then whatever either side sends goes to the other, the upstream's `101 Switching Protocols` included,
 * until one of them closes. No timeout: such streams last as long as their session.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { checkServerIdentity, connect, type PeerCertificate, type TLSSocket } from 'node:tls';
import { unavailable } from './forward.js';
import type { Upstream } from './upstream.js';

export interface UpgradeRequest {
  method: string;
  /** path and query */
  path: string;
  headers: IncomingHttpHeaders;
  /** client headers never passed on (lower case) */
  dropHeaders?: (name: string) => boolean;
  /** headers this server adds (the caller's identity) */
  extraHeaders?: OutgoingHttpHeaders;
}

/** The request head as the upstream gets it: its own Host, the client's Connection and Upgrade kept. */
export function upgradeHead(upstream: Upstream, request: UpgradeRequest): string {
  const lines = [`${request.method} ${request.path} HTTP/1.1`];
  const host = upstream.host.includes(':') ? `[${upstream.host}]` : upstream.host;
  lines.push(`Host: ${host}:${upstream.port}`);
  const add = (name: string, value: string | number | readonly string[] | undefined) => {
    if (value === undefined) return;
    for (const v of Array.isArray(value) ? value : [value])
      lines.push(`${name}: ${String(v).replace(/[\r\n]/g, '')}`);
  };
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'host' || name.startsWith(':') || request.dropHeaders?.(name)) continue;
    add(name, value);
  }
  for (const [name, value] of Object.entries(request.extraHeaders ?? {}))
    add(name, value as string | string[]);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * Connects to `upstream`, sends the request and `head` (bytes the client sent past its request), then relays
 * both ways. Resolves once the relay runs; rejects with a 503 ApiError when the upstream cannot be reached (the
 * client socket is then still the caller's to answer).
 */
export function relayUpgrade(
  upstream: Upstream,
  request: UpgradeRequest,
  client: Duplex,
  head: Buffer,
): Promise<void> {
  const name = upstream.serverName ?? upstream.host;
  return new Promise((resolve, reject) => {
    const socket: TLSSocket = connect({
      host: upstream.host,
      port: upstream.port,
      servername: /^[\d.]+$|:/.test(name) ? undefined : name,
      ca: upstream.ca,
      cert: upstream.clientCert?.cert,
      key: upstream.clientCert?.key,
      rejectUnauthorized: !upstream.insecureSkipTLSVerify,
      checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(name, cert),
      ALPNProtocols: ['http/1.1'],
    });
    socket.setNoDelay(true);
    const beforeConnect = () => reject(unavailable());
    socket.once('error', beforeConnect);
    socket.once('secureConnect', () => {
      socket.off('error', beforeConnect);
      socket.write(upgradeHead(upstream, request));
      if (head.length > 0) socket.write(head);
      socket.pipe(client);
      client.pipe(socket);
      const end = () => {
        socket.destroy();
        client.destroy();
      };
      socket.once('error', end);
      client.once('error', end);
      socket.once('close', end);
      client.once('close', end);
      resolve();
    });
  });
}
