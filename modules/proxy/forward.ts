/**
 * One request forwarded to an upstream and its answer streamed back: status and headers as they come, the
 * body piped with backpressure (a watch flows event by event, never buffered), the upstream request closed when
 * the client goes. No timeout of its own: the caller's deadline (the pipeline's) applies to what is not a watch.
 * An upstream that cannot be reached before its answer began is a 503 Status.
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { ApiError } from '../api/index.js';
import type { Upstream, UpstreamAgents } from './upstream.js';

/** hop-by-hop headers (RFC 9110 §7.6.1) and HTTP/2 ones that must not cross a proxy */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'host',
]);

export interface ForwardedRequest {
  method: string;
  /** path and query, as the upstream should see them */
  path: string;
  headers: IncomingHttpHeaders;
  /** the body the server already read, or the client's stream */
  body?: Buffer | Readable;
  /** headers this server adds (the caller's identity), after the client's own were dropped */
  extraHeaders?: OutgoingHttpHeaders;
  /** client headers never passed on (lower case): credentials and identity headers */
  dropHeaders?: (name: string) => boolean;
  /** called once the upstream answers, before its answer is written (the caller takes the response over) */
  answering?: () => void;
}

export type ProxyResponse = ServerResponse | Http2ServerResponse;

/** The client's headers as the upstream should get them. */
export function forwardedHeaders(request: ForwardedRequest): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name.startsWith(':') || HOP_BY_HOP.has(name)) continue;
    if (request.dropHeaders?.(name)) continue;
    out[name] = value;
  }
  if (Buffer.isBuffer(request.body)) out['content-length'] = String(request.body.length);
  else if (!request.body) delete out['content-length'];
  return { ...out, ...request.extraHeaders };
}

/** The upstream's answer headers as the client may get them (no hop-by-hop headers; h2 refuses them). */
function answerHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

export function unavailable(): ApiError {
  return new ApiError(503, 'ServiceUnavailable', 'service unavailable');
}

/**
 * Forwards `request` to `upstream` and writes its answer to `response`. Resolves when the answer is over (or the
 * client left); rejects with a 503 ApiError when the upstream fails before answering.
 */
export function forward(
  agents: UpstreamAgents,
  upstream: Upstream,
  request: ForwardedRequest,
  response: ProxyResponse,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const out = httpsRequest({
      host: upstream.host,
      port: upstream.port,
      method: request.method,
      path: request.path,
      headers: forwardedHeaders(request),
      agent: agents.agent(upstream),
    });
    const clientGone = () => {
      if (!response.writableFinished) out.destroy();
    };
    response.once('close', clientGone);
    out.once('error', (error) => {
      response.off('close', clientGone);
      if (!answered) return reject(unavailable());
      // the answer began: all that can be done is to end it where it broke
      response.destroy(error);
      resolve();
    });
    out.once('response', (answer: IncomingMessage) => {
      answered = true;
      // the caller answered meanwhile (its deadline passed): this answer has nowhere to go
      if (response.headersSent) {
        answer.destroy();
        out.destroy();
        return resolve();
      }
      request.answering?.();
      response.writeHead(answer.statusCode ?? 502, answerHeaders(answer.headers));
      // watches: the client sees the headers now, and each event as it arrives (h2's writeHead sends them)
      if ('flushHeaders' in response) response.flushHeaders();
      answer.pipe(response as NodeJS.WritableStream);
      answer.once('end', () => resolve());
      answer.once('error', () => {
        response.destroy();
        resolve();
      });
      response.once('close', () => {
        answer.destroy();
        resolve();
      });
    });
    if (!request.body) out.end();
    else if (Buffer.isBuffer(request.body)) out.end(request.body);
    else request.body.pipe(out);
  });
}
