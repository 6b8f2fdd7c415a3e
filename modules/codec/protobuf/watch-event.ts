/**
 * Protobuf watch streams (`application/vnd.kubernetes.protobuf;stream=watch`), framed as kube frames them: each
 * event is a 4-byte big-endian length, then a bare meta.k8s.io/v1 WatchEvent message {1: type, 2: object}
 * (kube's stream serializer writes it without the `k8s\0` envelope). The object is a RawExtension {1: raw}
 * whose bytes are the object's own complete body, envelope included.
 */
import { malformed, WireReader, WireType, WireWriter } from './wire.js';

/** One frame: the length prefix and a WatchEvent around an already encoded body (`k8s\0` + Unknown). */
export function watchEventFrame(type: string, body: Uint8Array): Uint8Array {
  const w = new WireWriter();
  // both are Go value fields: always written
  w.string(1, type);
  w.message(2, (raw) => raw.bytes(1, body));
  const message = w.finish();
  const frame = new Uint8Array(4 + message.length);
  new DataView(frame.buffer).setUint32(0, message.length, false);
  frame.set(message, 4);
  return frame;
}

export interface WatchEventMessage {
  type: string;
  /** the object's complete body (`k8s\0` + Unknown) */
  object: Uint8Array;
}

/** A WatchEvent message (one frame without its length prefix). */
export function decodeWatchEvent(message: Uint8Array): WatchEventMessage {
  const out: WatchEventMessage = { type: '', object: new Uint8Array(0) };
  const r = new WireReader(message);
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if ((field === 1 || field === 2) && wireType !== WireType.Bytes) {
      throw malformed(`proto: wrong wireType = ${wireType} for field ${field === 1 ? 'Type' : 'Object'}`);
    }
    if (field === 1) out.type = r.string();
    else if (field === 2) {
      const { start, end } = r.span();
      const raw = new WireReader(message, start, end);
      while (!raw.done()) {
        const t = raw.tag();
        if (t.field === 1 && t.wireType === WireType.Bytes) out.object = raw.bytes();
        else raw.skip(t.wireType);
      }
    } else r.skip(wireType);
  }
  return out;
}

/** Splits a byte stream into frames as chunks arrive; a frame may span chunks. */
export class FrameReader {
  private pending = Buffer.alloc(0);

  /** Adds a chunk and returns every frame (without its length prefix) now complete. */
  push(chunk: Uint8Array): Uint8Array[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk);
    const frames: Uint8Array[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt32BE(0);
      if (this.pending.length < 4 + length) break;
      frames.push(new Uint8Array(this.pending.subarray(4, 4 + length)));
      this.pending = this.pending.subarray(4 + length);
    }
    return frames;
  }

  /** bytes of a frame not yet complete */
  get buffered(): number {
    return this.pending.length;
  }
}
