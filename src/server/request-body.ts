/**
 * Request bodies as the pipeline wants them: bytes, at most --max-request-body-bytes (kube's 3 MiB), read
 * whole before the pipeline runs; except the bodies of requests another server handles (an aggregated API's),
 * which stay a stream for the proxy to pass on: their size is the backend's to judge, as kube's aggregator
 * leaves it.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../modules/api/index.js';

type Done = (err: Error | null, body?: unknown) => void;

export function requestBodyParser(limit: number, streamed: (method: string, url: string) => boolean) {
  const tooLarge = () => ApiError.tooLarge(`Request entity too large: limit is ${limit}`);
  return (req: FastifyRequest, payload: IncomingMessage, done: Done): void => {
    if (streamed(req.method, req.url)) return done(null, payload);
    const declared = Number(req.headers['content-length']);
    if (declared > limit) return done(tooLarge());
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limit) {
        stop();
        return done(tooLarge());
      }
      chunks.push(bytes);
    }
    function onEnd(err?: Error) {
      stop();
      if (err) return done(ApiError.badRequest('the request body could not be read'));
      if (!Number.isNaN(declared) && received !== declared)
        return done(ApiError.badRequest('the request body does not match its Content-Length'));
      done(null, Buffer.concat(chunks, received));
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  };
}
