/**
 * Slow senders: a client must send its request in time. kube's Go server gives 32 s for the headers
 * (ReadHeaderTimeout), and the body is read under the request timeout. Here:
 *
 * - HTTP/1.1: Node's own deadlines, from the request's first byte: the headers within min(32 s,
 *   --request-timeout), the whole request (body included) within --request-timeout. Past them Node answers 408
 *   (through the server's `clientError` handler) and closes the connection. They measure receiving the request
 *   only: a watch, a GET without a body, is received at once and may then stream for as long as it lasts.
 * - HTTP/2: a stream whose body has not all arrived within --request-timeout answers 408 and is reset
 *   (RST_STREAM NO_ERROR: the client may stop sending). Streams without a body (END_STREAM on their HEADERS) are
 *   not tracked. One coarse sweep finds them, as Node's connection check does for HTTP/1.1: no timer per request.
 */
import {
  constants,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from 'node:http2';
import { ApiError } from '../../modules/api/index.js';

/** kube's ReadHeaderTimeout (secure_serving.go) */
export const HEADER_DEADLINE_MS = 32_000;

interface Receiving {
  at: number;
  req: Http2ServerRequest;
  res: Http2ServerResponse;
}

function requestTimeout(): ApiError {
  return new ApiError(
    408,
    'Timeout',
    'Timeout: the request was not received within the allotted timeout',
    {},
  );
}

/** Arms the receive deadlines on the server (before it listens); returns what stops the sweep. */
export function guardSlowSenders(server: Http2SecureServer, deadlineMs: number): () => void {
  const checkMs = Math.max(50, Math.min(1000, Math.floor(deadlineMs / 4)));
  const http1 = server as unknown as {
    headersTimeout: number;
    requestTimeout: number;
    connectionsCheckingInterval: number;
  };
  http1.headersTimeout = Math.min(HEADER_DEADLINE_MS, deadlineMs);
  http1.requestTimeout = deadlineMs;
  // read by Node when the server starts listening
  http1.connectionsCheckingInterval = checkMs;

  const receiving = new Set<Receiving>();
  server.on('request', (req: Http2ServerRequest, res: Http2ServerResponse) => {
    if (req.httpVersionMajor !== 2 || req.stream.endAfterHeaders) return;
    receiving.add({ at: performance.now() + deadlineMs, req, res });
  });
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const entry of receiving) {
      const { req, res } = entry;
      if (req.complete || res.headersSent) receiving.delete(entry);
      else if (entry.at <= now) {
        receiving.delete(entry);
        tooSlow(req, res);
      }
    }
  }, checkMs).unref();
  return () => clearInterval(sweep);
}

/** 408 with a Status, then RST_STREAM NO_ERROR: the rest of the body is not wanted. */
function tooSlow(req: Http2ServerRequest, res: Http2ServerResponse): void {
  const stream = req.stream;
  if (stream.destroyed) return;
  const body = JSON.stringify(requestTimeout().toStatus());
  res.writeHead(408, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body, () => {
    if (!stream.destroyed) stream.close(constants.NGHTTP2_NO_ERROR);
  });
}
