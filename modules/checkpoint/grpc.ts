/**
 * One unary gRPC call over HTTP/2 on a unix socket, as much of gRPC as a CRI call needs: the request a
 * length-prefixed message (a flag byte, then 4 bytes big-endian length), `content-type: application/grpc`,
 * `te: trailers`, a `grpc-timeout`, and the answer's `grpc-status`/`grpc-message` in its trailers, or in its
 * headers for a trailers-only answer. Every failure is a RuntimeError with gRPC's code: a socket nobody listens
 * on is Unavailable, a call past its deadline DeadlineExceeded.
 */
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { createConnection } from 'node:net';
import { GrpcCode, RuntimeError } from './runtime.js';

/** The 5-byte prefix and the message. */
export function grpcFrame(message: Uint8Array): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

/** The one message of a unary call's body; undefined when the body is not exactly one uncompressed message. */
export function grpcUnframe(body: Buffer): Uint8Array | undefined {
  if (body.length < 5 || body[0] !== 0) return undefined;
  const length = body.readUInt32BE(1);
  return body.length === 5 + length ? body.subarray(5) : undefined;
}

/** gRPC's timeout header: at most 8 digits and a unit */
export function grpcTimeout(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  return whole < 1e8 ? `${whole}m` : `${Math.ceil(whole / 1000)}S`;
}

/** grpc-message is percent-encoded UTF-8; a malformed escape is kept as it is */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = Buffer.from(run.replaceAll('%', ''), 'hex');
    const decoded = bytes.toString('utf8');
    return decoded.includes('\uFFFD') ? run : decoded;
  });
}

/** gRPC's mapping of an HTTP status that is not 200 (a proxy, not a gRPC server, answered) */
function codeOfHttpStatus(status: number): number {
  if (status === 400) return GrpcCode.INTERNAL;
  if (status === 401) return 16;
  if (status === 403) return 7;
  if (status === 404) return GrpcCode.UNIMPLEMENTED;
  if ([429, 502, 503, 504].includes(status)) return GrpcCode.UNAVAILABLE;
  return GrpcCode.UNKNOWN;
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function outcome(
  headers: IncomingHttpHeaders | undefined,
  trailers: IncomingHttpHeaders | undefined,
  body: Buffer,
) {
  if (!headers)
    return new RuntimeError(GrpcCode.UNAVAILABLE, 'the stream closed before the runtime answered');
  const status = Number(headers[':status']);
  if (status !== 200)
    return new RuntimeError(
      codeOfHttpStatus(status),
      `unexpected HTTP status code received from server: ${status}`,
    );
  const code = one(trailers?.['grpc-status']) ?? one(headers['grpc-status']);
  const message = one(trailers?.['grpc-message']) ?? one(headers['grpc-message']) ?? '';
  if (code === undefined)
    return new RuntimeError(GrpcCode.INTERNAL, 'server closed the stream without sending trailers');
  if (!/^\d+$/.test(code))
    return new RuntimeError(GrpcCode.UNKNOWN, `malformed grpc-status ${JSON.stringify(code)}`);
  if (code !== '0') return new RuntimeError(Number(code), percentDecoded(message));
  const message_ = grpcUnframe(body);
  if (!message_) return new RuntimeError(GrpcCode.INTERNAL, 'malformed response message');
  return message_;
}

/**
 * Calls `method` with `message` on the gRPC server at the unix socket `socketPath`; its answer's message, or a
 * RuntimeError. `timeoutMs` bounds the whole call and is sent to the server as its deadline.
 */
export function grpcUnary(
  socketPath: string,
  method: string,
  message: Uint8Array,
  timeoutMs: number,
): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    // grpc-go's authority for a unix socket
    const session: ClientHttp2Session = connect('http://localhost', {
      createConnection: () => createConnection(socketPath),
    });
    let settled = false;
    const finish = (result: Uint8Array | RuntimeError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.destroy();
      if (result instanceof RuntimeError) reject(result);
      else resolve(result);
    };
    const timer = setTimeout(
      () => finish(new RuntimeError(GrpcCode.DEADLINE_EXCEEDED, 'context deadline exceeded')),
      timeoutMs,
    );
    session.on('error', (e: NodeJS.ErrnoException) =>
      finish(
        new RuntimeError(
          GrpcCode.UNAVAILABLE,
          `connection error: desc = "transport: Error while dialing: dial unix ${socketPath}: ${e.code ?? e.message}"`,
        ),
      ),
    );
    const stream = session.request({
      ':method': 'POST',
      ':path': method,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': grpcTimeout(timeoutMs),
      'user-agent': 'pgkube-node-agent',
    });
    let headers: IncomingHttpHeaders | undefined;
    let trailers: IncomingHttpHeaders | undefined;
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (headers = h));
    stream.on('trailers', (t) => (trailers = t));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', () => undefined);
    stream.on('close', () => {
      if (stream.rstCode !== undefined && stream.rstCode !== constants.NGHTTP2_NO_ERROR && !headers)
        return finish(new RuntimeError(GrpcCode.UNAVAILABLE, `stream reset (code ${stream.rstCode})`));
      finish(outcome(headers, trailers, Buffer.concat(chunks)));
    });
    stream.end(grpcFrame(message));
  });
}
