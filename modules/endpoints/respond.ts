/** Writing responses: one encoder for objects, one for errors (every error is a Status, ARCHITECTURE.md). */
import { isListBody } from '../api/index.js';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../api/index.js';
import { logResponseObject } from './audit-hooks.js';
import { storageFailure } from '../registry/index.js';
import { cborListSchema, cborMediaType, encodeCbor } from '../codec/index.js';
import { encodeProtobuf, responseSchema } from '../codec/index.js';
import type { Schema } from '../api/index.js';
import { contentTypes, encodeBody, gzipIfLarge, type Conversion, type Format } from '../codec/index.js';

export interface Output {
  format: Format;
  pretty: boolean;
  /** Table or PartialObjectMetadata, when the client asked for it (reads only) */
  conversion?: Conversion;
  /** answer in Protobuf: the schema of one object (the kind's or PartialObjectMetadata's; lists and Status follow) */
  protobuf?: Schema;
  /** the client accepts gzip and APIResponseCompression is on: large bodies are compressed */
  gzip?: boolean;
  /** answer in CBOR; the kind's schema tells which fields are bytes (none for Status, Table, metadata) */
  cbor?: { schema?: Schema };
}

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

function protobufBody(body: Record<string, unknown>, schema: Schema): Buffer {
  return Buffer.from(encodeProtobuf(body, responseSchema(body, schema)));
}

/** A Status carries no byte fields; a list of the kind is read through its items' schema. */
function cborBody(body: Record<string, unknown>, schema: Schema | undefined): Buffer {
  if (!schema || body.kind === 'Status') return Buffer.from(encodeCbor(body));
  const list = isListBody(body);
  return Buffer.from(encodeCbor(body, list ? cborListSchema(schema) : schema));
}

export const jsonOutput: Output = { format: 'json', pretty: false };

/**
 * kube's warn-text: the text in double quotes with `"` and `\` escaped; line breaks and other control characters
 * become spaces (as Go's header writer does), and the UTF-8 bytes go out as they are.
 */
function warnText(text: string): string {
  const quoted = `"${text.replace(/["\\]/g, (c) => `\\${c}`).replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ' ')}"`;
  return Buffer.from(quoted, 'utf8').toString('latin1');
}

/**
 * Adds `Warning: 299 - "<text>"` headers (RFC 7234 5.5), after any already set. They are mirrored onto the raw
 * response so that streams written there directly (watch) carry them too.
 */
export function addWarnings(reply: FastifyReply, texts: readonly string[]): void {
  if (texts.length === 0) return;
  const before = reply.getHeader('Warning');
  const all = [
    ...(before === undefined ? [] : ([] as string[]).concat(before as string | string[])),
    ...texts.map((t) => `299 - ${warnText(t)}`),
  ];
  reply.header('Warning', all);
  if (!reply.raw.headersSent) reply.raw.setHeader('Warning', all);
}

export function send(reply: FastifyReply, code: number, body: unknown, out: Output): FastifyReply {
  // answered already (the request timed out): this answer is dropped
  if (reply.sent) return reply;
  logResponseObject(reply, body);
  // bytes, not a string: Fastify would add `; charset=utf-8`, which kube does not send
  const bytes = out.protobuf
    ? protobufBody(body as Record<string, unknown>, out.protobuf)
    : out.cbor
      ? cborBody(body as Record<string, unknown>, out.cbor.schema)
      : Buffer.from(encodeBody(body, out.format, out.pretty));
  const type = out.protobuf ? PROTOBUF : out.cbor ? cborMediaType : contentTypes[out.format];
  reply.code(code).header('Content-Type', type);
  const gzipped = out.gzip ? gzipIfLarge(bytes) : undefined;
  if (!gzipped) return reply.send(bytes);
  return reply.header('Content-Encoding', 'gzip').header('Vary', 'Accept-Encoding').send(gzipped);
}

/** Fastify's errors before the pipeline, in our words (its own text never reaches a client). */
const fastifyErrors: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => ApiError.tooLarge('Request entity too large: limit is 3145728'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => ApiError.unsupportedMediaType(['application/json']),
  // an undecodable URL (`%ff`, an escaped lone surrogate)
  FST_ERR_BAD_URL: () => ApiError.badRequest('invalid URL escape in the request path'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    ApiError.badRequest('the request body does not match its Content-Length'),
};

/**
 * Anything thrown while serving a request becomes a Status. Unknown errors are logged and answer 500 (4xx
 * from the HTTP layer keep their code) with our words only: the text of a library, PostgreSQL or V8 stays in
 * the log.
 */
export function toApiError(error: unknown, log: (e: unknown) => void): ApiError {
  if (error instanceof ApiError) return error;
  const storage = storageFailure(error);
  if (storage) return storage;
  const fastifyCode = (error as { code?: string })?.code;
  const known = fastifyCode ? fastifyErrors[fastifyCode] : undefined;
  if (known) return known();
  const status = (error as { statusCode?: number })?.statusCode;
  if (status && status >= 400 && status < 500)
    return new ApiError(status, status === 400 ? 'BadRequest' : '', 'the server could not read the request');
  log(error);
  return ApiError.internal('the server met an unexpected error (it is in the server log)');
}

export function sendError(reply: FastifyReply, error: ApiError, out: Output = jsonOutput): FastifyReply {
  if (error.headers) for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
  return send(reply, error.code, error.toStatus(), out);
}

/**
 * A Status written straight on a connection no HTTP response object owns (a request Node's parser refused, an
 * upgrade request refused), then the connection closed.
 */
export function writeStatus(socket: Duplex, error: ApiError): void {
  if (socket.destroyed) return;
  if (socket.writable) {
    const body = JSON.stringify(error.toStatus());
    socket.write(
      `HTTP/1.1 ${error.code} ${STATUS_CODES[error.code]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
