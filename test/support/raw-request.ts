/** HTTPS requests whose bodies stay bytes both ways (Protobuf, YAML), for the wire-format tests. */
import { request as httpsRequest } from 'node:https';
import type { TestServer } from './server.js';

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
