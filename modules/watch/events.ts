/** One change as the watch cache keeps it: the new state and the state before, at its revision. */
import type { KubeObject } from '../api/index.js';
import type { ChangeType } from '../storage/index.js';

export interface CachedEvent {
  rv: number;
  type: ChangeType;
  resource: string;
  namespace: string;
  name: string;
  /** the object after the change (for DELETED: its last state, at the deletion revision) */
  object: KubeObject;
  /** the object before the change (undefined for ADDED) */
  prev?: KubeObject;
  /** when this replica learned of it (ms); history is trimmed by it */
  at: number;
}

export type EventType = ChangeType | 'BOOKMARK' | 'ERROR';

/**
 * How a watch stream writes its events, one per media type (and conversion): JSON lines, Protobuf frames.
 * `encode` gets the event's object as stored (or, for ERROR, a Status) and does any conversion itself.
 */
export interface WatchEncoding {
  contentType: string;
  /**
   * Names the encoding when `encode` depends on nothing but its arguments: events of stored objects are then
   * encoded once per object and event type, and shared by every watcher using an encoding of this name.
   */
  shared?: string;
  encode(type: EventType, object: object): string | Uint8Array;
}

/** kube's JSON watch stream: one `{"type":…,"object":…}` line per event. */
export function jsonEventLine(type: EventType, object: unknown): string {
  return `{"type":"${type}","object":${JSON.stringify(object)}}\n`;
}

/** encoded events by stored object, then by encoding and event type (as bytes: written by many watchers) */
const encoded = new WeakMap<KubeObject, Map<string, Uint8Array>>();

/** An event of a stored object in `encoding`: from the cache when another watcher needed it already. */
export function encodeEvent(
  encoding: WatchEncoding,
  type: EventType,
  object: KubeObject,
): string | Uint8Array {
  if (!encoding.shared) return encoding.encode(type, object);
  let byKey = encoded.get(object);
  if (!byKey) {
    byKey = new Map();
    encoded.set(object, byKey);
  }
  const key = `${encoding.shared} ${type}`;
  let event = byKey.get(key);
  if (event === undefined) {
    const bytes = encoding.encode(type, object);
    event = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    byKey.set(key, event);
  }
  return event;
}

const CRLF = Buffer.from('\r\n');
/** HTTP/1.1 chunks of shared events, made once: a thousand watchers then write the same bytes */
const chunks = new WeakMap<Uint8Array, Buffer>();

/** `bytes` as one chunk of a chunked HTTP/1.1 body (not empty: an empty chunk ends the body) */
export function httpChunk(bytes: string | Uint8Array): Buffer {
  if (typeof bytes === 'string') return httpChunk(Buffer.from(bytes));
  let chunk = chunks.get(bytes);
  if (!chunk) {
    chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]);
    chunks.set(bytes, chunk);
  }
  return chunk;
}

/** the last join of more than one event, and its parts: watchers of one batch mostly send the same events */
let lastJoin: { parts: readonly Uint8Array[]; bytes: Uint8Array } | undefined;

/**
 * Events as one write. Shared events joined in the same order by the watcher before come back as the same
 * bytes (so an HTTP/1.1 chunk of them is made once, too), not a copy per watcher.
 */
export function joinEvents(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const last = lastJoin;
  if (last && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i]))
    return last.bytes;
  const bytes = Buffer.concat(parts);
  lastJoin = { parts, bytes };
  return bytes;
}
