/**
 * Reads a watch stream from the test server, event by event: newline-delimited JSON, or (with `protobuf`)
 * kube's length-prefixed Protobuf frames, each decoded with our own codec.
 */
import { request as httpsRequest } from 'node:https';
import {
  decodeProtobuf,
  decodeWatchEvent,
  FrameReader,
  statusSchema,
  unwrap,
} from '../../modules/codec/index.js';
import type { Schema } from '../../modules/registry/index.js';
import { CborSequenceReader, decodeCbor } from '../../modules/codec/index.js';
import type { ServerClient } from './server.js';

export interface WatchEvent {
  type: string;
  object: any;
  /** Protobuf streams: the frame's WatchEvent message, and the object's own body inside it */
  frame?: Uint8Array;
  body?: Uint8Array;
}

export interface WatchStream {
  status: number;
  contentType: string;
  events: WatchEvent[];
  /** the next event not yet taken; fails after `timeoutMs` */
  next(timeoutMs?: number): Promise<WatchEvent>;
  /** resolves when the server ends the stream */
  ended: Promise<void>;
  /** true once the server ended the stream */
  finished(): boolean;
  /** bytes received that do not (yet) make a whole event */
  pending(): number;
  /** the body of a non-200 answer */
  errorBody(): Buffer;
  close(): void;
}

export interface WatchClientOptions {
  accept?: string;
  /** read Protobuf frames; objects decode with this schema (Status with Status's) */
  protobuf?: Schema;
  /** read a CBOR sequence (application/cbor-seq), one {type, object} item per event */
  cbor?: boolean;
}

type Decoder = { push(chunk: Buffer): WatchEvent[]; pending(): number };

function jsonLines(): Decoder {
  let buffer = '';
  return {
    push(chunk) {
      buffer += chunk.toString('utf8');
      const out: WatchEvent[] = [];
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim()) out.push(JSON.parse(line));
      }
      return out;
    },
    pending: () => Buffer.byteLength(buffer),
  };
}

function protobufFrames(schema: Schema): Decoder {
  const frames = new FrameReader();
  return {
    push(chunk) {
      return frames.push(chunk).map((frame) => {
        const { type, object: body } = decodeWatchEvent(frame);
        const kind = unwrap(body).kind;
        return { type, object: decodeProtobuf(body, kind === 'Status' ? statusSchema : schema), frame, body };
      });
    },
    pending: () => frames.buffered,
  };
}

function cborItems(): Decoder {
  const reader = new CborSequenceReader();
  return {
    push: (chunk) => reader.push(chunk).map((item) => ({ ...(decodeCbor(item) as WatchEvent), body: item })),
    pending: () => reader.buffered,
  };
}

export function openWatch(
  s: Pick<ServerClient, 'url' | 'ca' | 'token'>,
  path: string,
  options: WatchClientOptions = {},
): Promise<WatchStream> {
  const accept =
    options.accept ??
    (options.protobuf
      ? 'application/vnd.kubernetes.protobuf'
      : options.cbor
        ? 'application/cbor'
        : undefined);
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    let taken = 0;
    let wake: (() => void) | undefined;
    let endResolve!: () => void;
    let finished = false;
    const ended = new Promise<void>((r) => (endResolve = r));
    const decoder = options.protobuf
      ? protobufFrames(options.protobuf)
      : options.cbor
        ? cborItems()
        : jsonLines();
    const req = httpsRequest(
      new URL(path, s.url),
      {
        method: 'GET',
        ca: s.ca,
        headers: { authorization: `Bearer ${s.token}`, ...(accept ? { accept } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          // an error answer is one Status body, not a stream
          if (res.statusCode !== 200) chunks.push(chunk);
          else events.push(...decoder.push(chunk));
          wake?.();
        });
        res.on('end', () => {
          finished = true;
          endResolve();
          wake?.();
        });
        res.on('error', () => {
          finished = true;
          endResolve();
        });
        res.on('close', () => {
          finished = true;
          endResolve();
        });
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type']),
          events,
          ended,
          finished: () => finished,
          pending: () => decoder.pending(),
          errorBody: () => Buffer.concat(chunks),
          async next(timeoutMs = 5000) {
            const deadline = Date.now() + timeoutMs;
            while (taken >= events.length) {
              if (Date.now() > deadline) throw new Error(`no watch event within ${timeoutMs} ms`);
              await new Promise<void>((r) => {
                wake = r;
                setTimeout(r, 50);
              });
            }
            return events[taken++];
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
