/**
 * The HTTPS listener: Fastify under NestJS, raw bodies (decoding is the pipeline's), one catch-all route.
 * It speaks HTTP/2 and HTTP/1.1 on one port (ALPN `h2`, `http/1.1`), as kube-apiserver does: kubectl and
 * client-go multiplex every request, watches included, over one h2 connection per host.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Http2SecureServer, Http2Session } from 'node:http2';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppModule } from '../app.module.js';
import type { Config } from '../config/config.js';
import { ApiError } from '../../modules/api/index.js';
import { Pipeline } from '../../modules/endpoints/index.js';
import { jsonOutput, sendError, toApiError, writeStatus } from '../../modules/endpoints/index.js';
import type { ServerOptions } from '../app.module.js';
import { boundHttp2Headers, headersTooLarge, MAX_HEADER_PAIRS } from './header-limit.js';
import { requestBodyParser } from './request-body.js';
import { guardSlowSenders } from './slow-senders.js';
import type { ServingTls } from './tls.js';

/**
 * kube-apiserver v1.32 with --http2-max-streams-per-connection=0 (its default) allows 100 streams per
 * connection (secure_serving.go: Go's client-side initial value, lower than Go's server default of 250).
 */
export const DEFAULT_HTTP2_STREAMS = 100;
/** kube's MaxUploadBufferPerStream: most request bodies fit; the connection window is this × streams */
const UPLOAD_WINDOW = 256 * 1024;
/** kube's http2 IdleTimeout (Go's http.DefaultTransport keep-alive) */
const IDLE_SESSION_MS = 90_000;
/** HTTP/1.1 keep-alive, as before h2 (Node's h2 server leaves it unset for its HTTP/1.1 fallback) */
const HTTP1_KEEP_ALIVE_MS = 65_000;

export async function createServer(
  config: Config,
  databaseUrl: string,
  tls: ServingTls,
  server: ServerOptions,
): Promise<NestFastifyApplication> {
  const streams = config.http2MaxStreamsPerConnection || DEFAULT_HTTP2_STREAMS;
  const adapter = new FastifyAdapter({
    http2: true,
    https: {
      cert: tls.cert,
      key: tls.key,
      // clients without ALPN, or offering only http/1.1, get HTTP/1.1 as before
      allowHTTP1: true,
      settings: { maxConcurrentStreams: streams, initialWindowSize: UPLOAD_WINDOW },
      minVersion: 'TLSv1.2',
      // a client certificate is asked for, never required, and judged per CA by the authenticators (kube's
      // RequestClientCert): the client CA and the proxy CA accept different certificates for different ends;
      // `ca` only names the acceptable issuers in the handshake
      requestCert: true,
      rejectUnauthorized: false,
      ...(tls.clientCas?.length ? { ca: tls.clientCas } : {}),
      // Node's h2 default (128) resets a stream with more headers; its HTTP/1.1 reads 2000 (kube bounds bytes only)
      maxHeaderListPairs: MAX_HEADER_PAIRS,
      // queued response bytes count against this; new streams are refused while it is exceeded, and each
      // watch may queue up to 16 MiB before it is closed, so Node's 10 MB would stall busy connections
      maxSessionMemory: 256,
    },
    bodyLimit: config.maxRequestBodyBytes,
    return503OnClosing: false,
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: 1024 },
    // malformed HTTP/1.1 (Node's parser gave up): a Status too, written on the socket as Fastify would
    clientErrorHandler: clientError,
    // errors Fastify finds before routing (an undecodable URL) leave as a Status too
    frameworkErrors: (error: Error, _req: unknown, reply: FastifyReply) =>
      sendError(
        reply,
        toApiError(error, (e) => console.error(e)),
        jsonOutput,
      ),
  } as never);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, databaseUrl, server),
    adapter,
    {
      logger: ['error', 'warn'],
      bodyParser: false,
    },
  );
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const pipeline = app.get(Pipeline);
  serveHttp2Sessions(fastify, streams);
  // a verified client certificate is cached per connection: a renegotiation must not swap it (Go allows none)
  fastify.server.on('secureConnection', (socket: TLSSocket) => {
    socket.disableRenegotiation();
    // Go's default, so kube's: an answer written in parts (a proxied one: headers, then its body) is not held
    // back by Nagle waiting for the client's delayed ACK (40 ms)
    socket.setNoDelay(true);
  });
  boundHttp2Headers(fastify);
  // a request must arrive within --request-timeout (HTTP/1.1 headers within 32 s); watches are received at once
  const stopGuard = guardSlowSenders(fastify.server as unknown as Http2SecureServer, config.requestTimeoutMs);
  fastify.server.once('close', stopGuard);

  // bodies stay bytes: the pipeline decodes them by Content-Type (JSON, YAML, later Protobuf/CBOR)
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    requestBodyParser(config.maxRequestBodyBytes, (method, url) => pipeline.streamsBody(method, url)),
  );
  // Fastify reads no body from a request without Content-Type, Content-Length and Transfer-Encoding; over
  // HTTP/2 that is a streamed body (kubectl create --raw -f sends one), which kube reads as JSON. The stream's
  // end flag tells whether a body follows: then the request is marked as chunked so the parser above reads it.
  fastify.addHook('onRequest', (req, _reply, done) => {
    const h = req.headers;
    if (
      req.raw.httpVersionMajor === 2 &&
      h['content-type'] === undefined &&
      h['content-length'] === undefined &&
      !(req.raw as unknown as { stream: { endAfterHeaders: boolean } }).stream.endAfterHeaders
    )
      h['transfer-encoding'] = 'chunked';
    done();
  });
  // upgrade requests (exec, attach, port-forward) for another server are relayed once authorized; others are
  // served as ordinary requests, as before (kube answers an upgrade it does not serve as a plain request)
  fastify.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pipeline.upgrades(req)) return void pipeline.upgrade(req, socket, head);
    if (head.length > 0) socket.unshift(head);
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    // no HTTP parser owns this connection any more: it ends with the answer
    res.once('finish', () => socket.end());
    fastify.server.emit('request', req, res);
  });
  fastify.route({
    // OPTIONS (and any other method) reaches the pipeline, which answers 405 as kube does
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/*',
    handler: (req, reply) => pipeline.handle(req, reply),
    // errors before the pipeline runs (body too large, unreadable body) leave as a Status too
    errorHandler: (error, _req, reply) =>
      sendError(
        reply,
        toApiError(error, (e) => console.error(e)),
        jsonOutput,
      ),
  });
  return app;
}

/**
 * What Node's HTTP/1.1 parser refuses (a malformed request line or header, headers or URL past its 16 KiB) is
 * answered here, before any route: a Status with the code (400, 431; 408 for a request that timed out),
 * then the connection closes. Only our own words go out, never the parser's.
 */
export function clientErrorStatus(err: NodeJS.ErrnoException): ApiError {
  if (err.code === 'HPE_HEADER_OVERFLOW') return headersTooLarge();
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new ApiError(408, 'Timeout', 'the request was not received in time');
  return ApiError.badRequest('the server could not read the request: malformed HTTP');
}

function clientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  writeStatus(socket, clientErrorStatus(err));
}

/**
 * h2 sessions: a connection window for all streams' uploads, an idle timeout that counts open streams (a
 * quiet watch is not idle), and a GOAWAY at shutdown (Node 20 does not end sessions on close; the watches
 * have ended by then, other streams finish). HTTP/1.1 keeps its keep-alive timeout; its receive deadlines are
 * guardSlowSenders'.
 */
function serveHttp2Sessions(fastify: FastifyInstance, streams: number): void {
  const server = fastify.server as unknown as Http2SecureServer & { keepAliveTimeout: number };
  server.keepAliveTimeout = HTTP1_KEEP_ALIVE_MS;
  const sessions = new Set<Http2Session>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    session.setLocalWindowSize(UPLOAD_WINDOW * streams);
    let open = 0;
    session.on('stream', (stream) => {
      open++;
      stream.once('close', () => open--);
    });
    // Fastify's own timeout listener closes the session whenever the timer fires, open watches or not
    session.removeAllListeners('timeout');
    session.setTimeout(IDLE_SESSION_MS, () => {
      if (open === 0) session.close();
    });
  });
  fastify.addHook('preClose', (done) => {
    for (const session of sessions) session.close();
    done();
  });
}
