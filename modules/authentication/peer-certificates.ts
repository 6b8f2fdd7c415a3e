/**
 * The certificate chain a client sent in its TLS handshake, read once per connection. The server asks for a
 * certificate without requiring one and without judging it (several CAs judge it differently: the client CA,
 * the proxy CA); the authenticators verify it. Every request of one connection gets the same array, so
 * verifying it can be cached per connection (certificate-pool.ts). The server turns renegotiation off
 * (src/server/http.ts): a connection cannot change its certificate.
 */
import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';

type Chain = readonly X509Certificate[];

/** by connection: the HTTP/1.1 socket, or the h2 session every stream of the connection shares */
const chains = new WeakMap<object, Chain | null>();
/** more is not read: no CA path is that long (certificate-pool.ts refuses it) */
const MAX_READ = 11;

function readChain(socket: TLSSocket): Chain | null {
  const first = socket.getPeerCertificate?.(true) as DetailedPeerCertificate | undefined;
  if (!first?.raw) return null;
  const chain: X509Certificate[] = [];
  const seen = new Set<DetailedPeerCertificate>();
  // Node links each certificate to its issuer among those sent (then its own CA store); a root links to itself
  for (let c: DetailedPeerCertificate | undefined = first; c?.raw && !seen.has(c); c = c.issuerCertificate) {
    seen.add(c);
    chain.push(new X509Certificate(c.raw));
    if (chain.length === MAX_READ) break;
  }
  return Object.freeze(chain);
}

/** The client's certificate chain, leaf first; undefined when it sent none (or the connection is not TLS). */
export function peerCertificates(raw: IncomingMessage | Http2ServerRequest): Chain | undefined {
  // an h2 request's `socket` is a new proxy per stream: the session is the connection
  const h2 = 'stream' in raw;
  const session = h2 ? raw.stream.session : undefined;
  const connection: object | undefined = h2 ? session : raw.socket;
  if (!connection) return undefined;
  let chain = chains.get(connection);
  if (chain === undefined) {
    const socket = (session ? session.socket : raw.socket) as TLSSocket | undefined;
    chain = socket ? readChain(socket) : null;
    chains.set(connection, chain);
  }
  return chain ?? undefined;
}
