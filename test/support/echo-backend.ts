/**
 * A small TLS server standing in for what pgkube relays upgrade requests to (an aggregated backend, the
 * sidecar's upstream): ordinary requests get `answer`; an upgrade request gets `101 Switching Protocols`, then
 * every byte back. `seen` holds the upgrade requests it received.
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { issue } from '../../src/pki/certificates.js';
import { testCa } from './certificates.js';

export interface EchoBackend {
  server: Server;
  port: number;
  /** the CA of its serving certificate (PEM) */
  ca: string;
  seen: IncomingMessage[];
  close(): void;
}

export async function echoBackend(
  names: { dnsNames?: string[]; ipAddresses?: string[] },
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<EchoBackend> {
  const ca = await testCa('echo-backend-ca');
  const serving = await issue(ca.signer, {
    commonName: 'echo-backend',
    usage: 'server',
    notAfter: new Date(Date.now() + 3600_000),
    ...names,
  });
  const seen: IncomingMessage[] = [];
  const server = createServer({ cert: serving.cert, key: serving.key }, answer);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    seen.push(req);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n');
    if (head.length > 0) socket.write(head);
    socket.pipe(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    server,
    port: (server.address() as AddressInfo).port,
    ca: ca.cert,
    seen,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
