/**
 * One bound on request headers for both protocols: Node's --max-http-header-size (16 KiB), past which the answer
 * is a 431 Status. HTTP/1.1's parser enforces it itself (its error becomes the Status in http.ts). nghttp2 hands
 * h2 streams over with header lists up to 64 KiB, so those are measured here, as HTTP/1.1 would count them,
 * before routing and before any body is read.
 */
import { maxHeaderSize } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../modules/api/index.js';
import { jsonOutput, sendError } from '../../modules/endpoints/index.js';

/** HTTP/1.1's parser gives up after this many headers (Node's maxHeadersCount) and so may an h2 stream */
export const MAX_HEADER_PAIRS = 2000;

/** kube has no reason for 431 (StatusReasonUnknown: none written) */
export function headersTooLarge(): ApiError {
  return new ApiError(
    431,
    '',
    `Request Header Fields Too Large: the request line and headers exceed ${maxHeaderSize / 1024} KiB`,
  );
}

/**
 * The bytes an h2 request's headers would take as an HTTP/1.1 request: `:method` and `:path` make the request
 * line, `:authority` the Host header; every other field is a `name: value` line.
 */
export function http1HeaderBytes(rawHeaders: readonly string[]): number {
  let bytes = ' HTTP/1.1\r\n\r\n'.length;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    const value = Buffer.byteLength(rawHeaders[i + 1]);
    if (name === ':method' || name === ':path') bytes += value + 1;
    else if (name === ':authority') bytes += 'host: \r\n'.length + value;
    else if (!name.startsWith(':')) bytes += Buffer.byteLength(name) + 4 + value;
  }
  return bytes;
}

/** h2 requests whose headers HTTP/1.1 would have refused get its answer: 431 */
export function boundHttp2Headers(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    if (req.raw.httpVersionMajor === 2 && http1HeaderBytes(req.raw.rawHeaders) > maxHeaderSize) {
      sendError(reply, headersTooLarge(), jsonOutput);
      return;
    }
    done();
  });
}
