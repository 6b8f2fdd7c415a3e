/**
 * Watch streams in CBOR (`application/cbor-seq`, RFC 8742): data items written one after another with no
 * framing, each a WatchEvent map {type, object} in the self-described tag. The object inside is kept exactly
 * as encoded on its own, self-described tag included (kube embeds the object's encoding as a RawExtension),
 * so an event's object is encoded once and framed for every watcher.
 */
import type { Schema } from '../../api/index.js';
import { encodeCbor } from './encode.js';
import { hasSelfDescribedPrefix, selfDescribedPrefix } from './media-types.js';
import { checkWellFormed, UnexpectedEndError } from './wellformed.js';

// "type" sorts before "object" (shorter keys first)
const typeKey = Buffer.from('4474797065', 'hex');
const objectKey = Buffer.from('466f626a656374', 'hex');

function byteStringHead(n: number): Buffer {
  if (n < 24) return Buffer.of(0x40 | n);
  if (n <= 0xff) return Buffer.of(0x58, n);
  if (n <= 0xffff) return Buffer.of(0x59, n >> 8, n & 0xff);
  const b = Buffer.alloc(5);
  b[0] = 0x5a;
  b.writeUInt32BE(n, 1);
  return b;
}

/**
 * One watch event. `object` is either the object's CBOR (as encodeCbor returns it, self-described tag first)
 * or the object itself, then encoded here with `schema`.
 */
export function encodeCborWatchEvent(
  type: string,
  object: Uint8Array | unknown,
  schema?: Schema,
): Uint8Array {
  const encoded = object instanceof Uint8Array ? object : encodeCbor(object, schema);
  if (!hasSelfDescribedPrefix(encoded))
    throw new Error('a watch event embeds an object encoded by encodeCbor');
  const typeBytes = Buffer.from(type, 'utf8');
  return Buffer.concat([
    selfDescribedPrefix,
    Buffer.of(0xa2),
    typeKey,
    byteStringHead(typeBytes.length),
    typeBytes,
    objectKey,
    encoded,
  ]);
}

/** Splits a complete CBOR sequence into its data items (an item cut short is an error). */
export function splitCborSequence(data: Uint8Array): Uint8Array[] {
  const items: Uint8Array[] = [];
  for (let off = 0; off < data.length;) {
    const end = checkWellFormed(data, off, false);
    items.push(data.subarray(off, end));
    off = end;
  }
  return items;
}

/** Reads a CBOR sequence as it arrives in chunks: each push returns the data items completed so far. */
export class CborSequenceReader {
  private pending: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): Uint8Array[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const items: Uint8Array[] = [];
    let off = 0;
    while (off < this.pending.length) {
      let end: number;
      try {
        end = checkWellFormed(this.pending, off, false);
      } catch (e) {
        if (e instanceof UnexpectedEndError) break;
        throw e;
      }
      items.push(this.pending.slice(off, end));
      off = end;
    }
    this.pending = this.pending.subarray(off);
    return items;
  }

  /** bytes of an item not yet complete */
  get buffered(): number {
    return this.pending.length;
  }
}
