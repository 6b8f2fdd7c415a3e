/**
 * One watch connection: replays history from its start revision, then follows the cache live; filters by
 * resource, namespace and selectors (an object that stops matching is sent as DELETED, one that starts
 * matching as ADDED, as kube does); sends bookmarks when asked; is closed when it falls too far behind.
 */
import type { ServerResponse } from 'node:http';
import { Http2ServerResponse, type ServerHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import type { KubeObject } from '../api/index.js';
import type { Status } from '../api/index.js';
import {
  encodeEvent,
  httpChunk,
  joinEvents,
  type CachedEvent,
  type EventType,
  type WatchEncoding,
} from './events.js';
import type { CacheListener, WatchCache } from './watch-cache.js';

export interface WatchOptions {
  resource: string;
  /** undefined watches every namespace */
  namespace?: string;
  matches(obj: KubeObject): boolean;
  /** start after this revision (events after it), with `initial` objects sent first as ADDED */
  startRv: number;
  initial: KubeObject[];
  timeoutMs: number;
  bookmarks: boolean;
  /** send the `k8s.io/initial-events-end` bookmark after the initial objects (sendInitialEvents) */
  initialEventsEnd: boolean;
  /** apiVersion and kind for bookmark objects */
  apiVersion: string;
  kind: string;
  /** the stream's media type and how events are written in it (conversions included) */
  encoding: WatchEncoding;
  /** counts the events sent (the apiserver_watch_events_total metric reads it) */
  sent?: { n: number };
  /**
   * Objects as the watch's version has them, for kinds stored in another (a CRD's versions): each batch of
   * events is converted in one call, in order; a conversion that fails ends the stream with its Status.
   */
  prepare?: (objects: KubeObject[]) => Promise<KubeObject[]>;
}

/** an event waiting for its batch's conversion, or an event of its own (bookmark) kept in order with them */
type Pending = { type: EventType; obj: KubeObject } | { encode: () => string | Uint8Array };

/** a watcher whose socket holds more unsent bytes than this is too slow: it is closed and relists */
const MAX_BUFFERED = 16 * 1024 * 1024;
const BOOKMARK_MS = 60_000;
/** queued events are written before they grow past this (a long history replay is not held in one buffer) */
const MAX_QUEUED = 64 * 1024;

export class Watcher implements CacheListener {
  private lastRv: number;
  private closed = false;
  private readonly timers: NodeJS.Timeout[] = [];
  /** set when events are written to the socket directly, as HTTP/1.1 chunks */
  private socket?: Socket;
  /** set for h2: events are written to the stream itself, past the compat response's per-write checks */
  private stream?: ServerHttp2Stream;
  /**
   * Events not yet written: those of one cache batch (or of the start) go out as one write, since each write
   * costs more than its bytes (a DATA frame or chunk, a write request and its completion, per watcher).
   */
  private queued: Uint8Array[] = [];
  private queuedBytes = 0;
  /** with `prepare`: events of the batch in progress, and the conversions under way, in order */
  private pending: Pending[] = [];
  private converting: Promise<void> = Promise.resolve();

  constructor(
    private readonly cache: WatchCache,
    private readonly options: WatchOptions,
    /** HTTP/1.1, or an h2 stream (Node's compat response: no chunked encoding, no socket of its own) */
    private readonly res: ServerResponse | Http2ServerResponse,
  ) {
    this.lastRv = options.startRv;
  }

  get resource(): string {
    return this.options.resource;
  }

  /** Sends the headers and, when `follow`, the initial objects, the history, then live events. */
  start(follow: boolean): void {
    const o = this.options;
    this.res.writeHead(200, { 'Content-Type': o.encoding.contentType, 'Cache-Control': 'no-cache, private' });
    // h2: writeHead has sent the HEADERS frame; each write below is a DATA frame on this stream, sent at once.
    // Its `socket` is a proxy for the connection that every stream shares, never to be written to.
    if (this.res instanceof Http2ServerResponse) this.stream = this.res.stream;
    else {
      this.res.flushHeaders();
      // HTTP/1.1: events go to the socket as ready-made chunks (shared between watchers): Node's response
      // writer would frame and copy every event again for each of them.
      if (this.res.chunkedEncoding && this.res.socket) this.socket = this.res.socket;
    }
    this.res.on('close', () => this.close());
    if (!follow) return;
    for (const obj of o.initial) this.send('ADDED', obj);
    if (o.initialEventsEnd) this.bookmark(true);
    // history first, then live; both run synchronously here, so nothing slips in between
    for (const event of this.cache.eventsAfter(this.lastRv)) this.onEvent(event);
    this.flush();
    this.cache.addListener(this);
    this.timers.push(setTimeout(() => this.close(), o.timeoutMs));
    if (o.bookmarks)
      this.timers.push(
        setInterval(() => {
          this.bookmark(false);
          this.flush();
        }, BOOKMARK_MS),
      );
  }

  onEvent(event: CachedEvent): void {
    if (this.closed || event.rv <= this.lastRv) return;
    this.lastRv = event.rv;
    const o = this.options;
    if (event.resource !== o.resource) return;
    if (o.namespace !== undefined && event.namespace !== o.namespace) return;
    const type = this.typeFor(event);
    if (!type) return;
    this.send(type, event.object);
  }

  /** kube's rules for a filtered watch: compare whether the old and the new state match */
  private typeFor(event: CachedEvent): EventType | undefined {
    const now = event.type !== 'DELETED' && this.options.matches(event.object);
    const before = event.prev !== undefined && this.options.matches(event.prev);
    if (event.type === 'DELETED') return this.options.matches(event.object) ? 'DELETED' : undefined;
    if (event.type === 'ADDED') return now ? 'ADDED' : undefined;
    // no previous state known (history loaded at start): an update that matches is MODIFIED
    if (event.prev === undefined) return now ? 'MODIFIED' : undefined;
    if (now && before) return 'MODIFIED';
    if (now) return 'ADDED';
    if (before) return 'DELETED';
    return undefined;
  }

  /** A stored object's event, encoded once for every watcher of the same encoding. */
  private send(type: EventType, obj: KubeObject): void {
    if (this.options.prepare) this.pending.push({ type, obj });
    else this.write(() => encodeEvent(this.options.encoding, type, obj));
  }

  /** An event that is not a stored object's, after the events before it. */
  private sendOwn(encode: () => string | Uint8Array): void {
    if (this.options.prepare) this.pending.push({ encode });
    else this.write(encode);
  }

  /** Converts a batch in one call, then queues its events in their order and writes them. */
  private async writeConverted(batch: Pending[], prepare: (objects: KubeObject[]) => Promise<KubeObject[]>) {
    if (this.closed) return;
    let converted: KubeObject[];
    try {
      converted = await prepare(batch.flatMap((p) => ('obj' in p ? [p.obj] : [])));
    } catch (e) {
      const status = (e as { toStatus?: () => Status }).toStatus?.();
      if (status) this.write(() => this.options.encoding.encode('ERROR', status));
      this.writeQueued();
      this.close();
      return;
    }
    let i = 0;
    for (const p of batch) {
      if ('encode' in p) this.write(p.encode);
      else {
        const obj = converted[i++];
        this.write(() => this.options.encoding.encode(p.type, obj));
      }
    }
    this.writeQueued();
  }

  private bookmark(initialEnd: boolean): void {
    // the initial-events bookmark marks the snapshot; a periodic one everything delivered so far
    if (!initialEnd) this.lastRv = Math.max(this.lastRv, this.cache.rv);
    const metadata: Record<string, unknown> = { resourceVersion: String(this.lastRv) };
    if (initialEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    const object = { kind: this.options.kind, apiVersion: this.options.apiVersion, metadata };
    this.sendOwn(() => this.options.encoding.encode('BOOKMARK', object));
  }

  /** An ERROR event carrying a Status (e.g. 410 Expired), then the end of the stream. */
  fail(status: Status): void {
    this.write(() => this.options.encoding.encode('ERROR', status));
    this.writeQueued();
    this.close();
  }

  /** Queues an event; an object that cannot be encoded ends the stream (as kube does), never the server. */
  private write(event: () => string | Uint8Array): void {
    if (this.closed) return;
    let bytes: string | Uint8Array;
    try {
      bytes = event();
    } catch {
      this.close();
      return;
    }
    if (bytes.length === 0) return;
    if (this.options.sent) this.options.sent.n++;
    this.queued.push(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
    this.queuedBytes += bytes.length;
    if (this.queuedBytes >= MAX_QUEUED) this.flush();
  }

  /** Writes the queued events as one; the cache calls it at the end of each batch of changes. */
  flush(): void {
    const prepare = this.options.prepare;
    if (prepare && this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      this.converting = this.converting.then(() => this.writeConverted(batch, prepare));
      return;
    }
    if (!prepare) this.writeQueued();
  }

  private writeQueued(): void {
    if (this.queued.length === 0 || this.closed) return;
    const bytes = joinEvents(this.queued);
    this.queued = [];
    this.queuedBytes = 0;
    const out = this.socket ?? this.stream ?? (this.res as ServerResponse);
    out.write(this.socket ? httpChunk(bytes) : bytes);
    if (out.writableLength > MAX_BUFFERED) this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queued = [];
    this.cache.removeListener(this);
    for (const t of this.timers) clearTimeout(t);
    this.res.end();
  }
}
