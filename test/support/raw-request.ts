/** HTTPS requests whose bodies stay bytes both ways (Protobuf, YAML), for the wire-format tests. */
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { ServerClient, TestServer } from './server.js';

export interface RawResponse {
  status: number;
  /** the Content-Type header */
  type: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function rawRequest(
  s: TestServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Uint8Array | string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(path, s.url),
      {
        method,
        ca: s.ca,
        // Node sends a DELETE body without a length unless told it: say it for every body
        headers: {
          authorization: `Bearer ${s.token}`,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type']),
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface RawHttpResponse {
  status: number;
  /** the header lines, lower-cased names */
  headers: Record<string, string>;
  body: string;
}

/** A fresh TLS connection to the server that speaks HTTP/1.1 (ALPN), once its handshake is done. */
export function http1Socket(s: ServerClient): Promise<TLSSocket> {
  const url = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host: url.hostname,
      port: Number(url.port),
      ca: s.ca,
      servername: 'localhost',
      ALPNProtocols: ['http/1.1'],
    });
    socket.once('secureConnect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Bytes written as they are on a fresh HTTP/1.1 TLS connection (malformed requests that no client library
 * sends); resolves with the answer once the server closes the connection.
 */
export async function rawHttp1(s: ServerClient, bytes: string | Buffer): Promise<RawHttpResponse> {
  const socket = await http1Socket(s);
  socket.write(bytes);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}
