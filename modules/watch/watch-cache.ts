/**
 * The watch cache: one change feed per replica. It reads the change log after the last revision it has seen
 * (woken by NOTIFY, with a slow poll as fallback), keeps the current objects and the recent history, and fans
 * every change out to the watchers of this replica. The change-log table is the truth: a lost notification
 * costs latency, a lost connection costs a retry, never an event.
 */
import type { KubeObject } from '../api/index.js';
import {
  StorageError,
  type Change,
  type CorruptObjectError,
  type LocalCommit,
  type Store,
} from '../storage/index.js';
import { CorruptEntries, unreadableEvent } from './corrupt-entries.js';
import type { CachedEvent } from './events.js';
import { objectKey, SortedIndex } from './sorted-index.js';

export interface WatchCacheOptions {
  /** how long history is kept (kube's default: 5 minutes) */
  retentionMs: number;
  /** fallback poll when no notification arrives */
  pollMs?: number;
  log?: (message: string) => void;
}

export interface CacheListener {
  /** the storage key (`<group>/<resource>`) listened to; `*`: every resource */
  readonly resource: string;
  /** called for every change of `resource`, in revision order */
  onEvent(event: CachedEvent): void;
  /** called after each batch of changes (one commit, one page of the change log): send what onEvent queued */
  flush(): void;
  /** the cache stops: end cleanly (the client re-watches elsewhere or later) */
  close(): void;
}

const PAGE = 1000;

export interface Page {
  items: KubeObject[];
  /** keys remain after the last item served (a continue token is due) */
  more: boolean;
  /** how many objects (selected or not) come after the page */
  remaining: number;
  /** key of the last object examined: the next page starts after it */
  last: string;
}

export class WatchCache {
  /** every change up to here is applied */
  rv = 0;
  /** history holds every change after this revision */
  private historyFrom = 0;
  /** history after this revision also knows each object's previous state (exact reads may start here) */
  private exactFrom = 0;
  private readonly objects = new Map<string, SortedIndex>();
  /** rows whose body storage could not decode: kept out of `objects`, named by reads that would include them */
  private readonly corrupt = new CorruptEntries();
  private history: CachedEvent[] = [];
  private readonly listeners = new Set<CacheListener>();
  /** the same listeners by storage key: a change visits only its own resource's listeners */
  private readonly listenersOf = new Map<string, Set<CacheListener>>();
  private waiters: { rv: number; resolve: () => void }[] = [];
  private pulling?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => Promise<void>;
  private stopped = false;
  synced = false;
  /** the last pull could not reach the change log (storage down): the watches were ended */
  feedLost = false;

  constructor(
    private readonly store: Store,
    private readonly options: WatchCacheOptions,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.store.subscribe((local) => (local ? this.applyLocal(local) : this.kick()));
    const from = await this.store.historyStart(this.options.retentionMs);
    const snapshot = await this.store.snapshot();
    for (const item of snapshot.items) {
      if (item.corrupt) this.corrupt.set(item.resource, item.namespace, item.name, item.corrupt);
      else this.bucket(item.resource).set(objectKey(item.namespace, item.name), item.object);
    }
    this.rv = snapshot.rv;
    this.exactFrom = snapshot.rv;
    await this.loadHistory(from, snapshot.rv);
    this.synced = true;
    this.kick();
    this.timer = setInterval(() => {
      this.kick();
      this.trim();
    }, this.options.pollMs ?? 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const listener of [...this.listeners]) listener.close();
    await this.unsubscribe?.().catch(() => undefined);
    await this.pulling;
  }

  /** Changes (from, snapshot] already happened before the snapshot; they become history (their `prev` unknown
   * except within the window itself), so a watcher resuming after a restart still finds them. */
  private async loadHistory(from: number, to: number): Promise<void> {
    const events: CachedEvent[] = [];
    const last = new Map<string, KubeObject>();
    for (let after = from; after < to;) {
      const { changes } = await this.store.changes(after, PAGE);
      if (changes.length === 0) break;
      for (const c of changes) {
        if (c.rv > to) break;
        const key = `${c.resource} ${objectKey(c.namespace, c.name)}`;
        const prev = last.get(key);
        if (c.corrupt) {
          const event = unreadableEvent(c, prev, Date.now());
          if (event) events.push(event);
          last.delete(key);
          continue;
        }
        events.push({ ...c, prev, at: Date.now() });
        last.set(key, c.object);
      }
      after = changes[changes.length - 1].rv;
    }
    this.history = events;
    this.historyFrom = from;
  }

  /** Pull now (a write was committed somewhere) or right after the pull in progress. */
  kick(): void {
    if (this.stopped || !this.synced) return;
    if (this.pulling) {
      this.again = true;
      return;
    }
    this.pulling = this.pull()
      .then(() => {
        if (this.feedLost) this.options.log?.('watch cache: storage is back; following the change log again');
        this.feedLost = false;
      })
      .catch((e) => this.lost(e))
      .finally(() => {
        this.pulling = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async pull(): Promise<void> {
    for (;;) {
      const page = await this.store.changes(this.rv, PAGE);
      for (const change of page.changes) this.apply(change);
      this.flush();
      // revisions without a change (failed writes) are passed too, or reads waiting for them would hang
      this.rv = Math.max(this.rv, page.rv);
      if (page.changes.length < PAGE) break;
    }
    this.release();
  }

  /**
   * The change log cannot be read. When storage is down or does not answer, every watch ends cleanly (as kube's
   * do when etcd is lost): its client watches again from its last revision, or relists, and is answered once
   * storage is back (a 503 meanwhile). The cache keeps what it has and catches up on the next pull.
   */
  private lost(error: unknown): void {
    if (!(error instanceof StorageError)) {
      this.options.log?.(`watch cache: ${(error as Error).message}; retrying`);
      return;
    }
    if (!this.feedLost)
      this.options.log?.(`watch cache: ${(error as Error).message}; watches closed, retrying`);
    this.feedLost = true;
    for (const listener of [...this.listeners]) listener.close();
  }

  /**
   * This replica's own batch: when it follows on directly from what the cache has, its changes are applied
   * as they are, without reading them back from the change log; otherwise a pull fills the gap.
   */
  private applyLocal(commit: LocalCommit): void {
    if (!this.synced || this.stopped) return;
    if (commit.base !== this.rv) {
      this.kick();
      return;
    }
    for (const change of commit.changes) this.apply(change);
    this.flush();
    this.rv = commit.rv;
    this.release();
  }

  private apply(change: Change): void {
    if (change.rv <= this.rv) return;
    const bucket = this.bucket(change.resource);
    const key = objectKey(change.namespace, change.name);
    const prev = bucket.get(key);
    this.rv = change.rv;
    if (change.type === 'DELETED' || change.corrupt) bucket.delete(key);
    else bucket.set(key, change.object);
    // a readable change or a removal ends a key's corruption; an unreadable body starts (or keeps) it
    if (change.corrupt && change.type !== 'DELETED')
      this.corrupt.set(change.resource, change.namespace, change.name, change.corrupt);
    else this.corrupt.delete(change.resource, change.namespace, change.name);
    const event = change.corrupt
      ? unreadableEvent(change, prev, Date.now())
      : {
          rv: change.rv,
          type: change.type,
          resource: change.resource,
          namespace: change.namespace,
          name: change.name,
          object: change.object,
          prev,
          at: Date.now(),
        };
    if (!event) return;
    this.history.push(event);
    const listeners = this.listenersOf.get(change.resource);
    if (listeners) for (const listener of listeners) listener.onEvent(event);
    const everything = this.listenersOf.get('*');
    if (everything) for (const listener of everything) listener.onEvent(event);
  }

  private flush(): void {
    for (const listener of this.listeners) listener.flush();
  }

  private release(): void {
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => w.rv <= this.rv);
    this.waiters = this.waiters.filter((w) => w.rv > this.rv);
    for (const w of ready) w.resolve();
  }

  /** Drops history older than the retention window. */
  private trim(): void {
    const cutoff = Date.now() - this.options.retentionMs;
    let drop = 0;
    while (drop < this.history.length && this.history[drop].at < cutoff) drop++;
    if (drop === 0) return;
    this.historyFrom = this.history[drop - 1].rv;
    this.exactFrom = Math.max(this.exactFrom, this.historyFrom);
    this.history = this.history.slice(drop);
  }

  /** Resolves true once the cache has applied every change up to `rv`; false after `timeoutMs`. */
  waitFor(rv: number, timeoutMs: number): Promise<boolean> {
    if (rv <= this.rv) return Promise.resolve(true);
    this.kick();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      const waiter = {
        rv,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Current objects of a resource (in one namespace when given), in key order, at `this.rv`. */
  list(resource: string, namespace?: string): KubeObject[] {
    return this.page(resource, namespace, this.rv, '', Infinity, () => true).items;
  }

  get(resource: string, namespace: string, name: string): KubeObject | undefined {
    return this.objects.get(resource)?.get(objectKey(namespace, name));
  }

  /** The error of a key whose stored body is corrupt (it is not among the objects), if it is. */
  corruptAt(resource: string, namespace: string, name: string): CorruptObjectError | undefined {
    return this.corrupt.at(resource, namespace, name);
  }

  /** The corrupt rows of a resource (in one namespace when given), in key order: a list of it names them. */
  corruptIn(resource: string, namespace?: string): CorruptObjectError[] {
    return this.corrupt.in(resource, namespace);
  }

  /** The oldest revision a watch may start from; older ones are gone (410). */
  get oldestRv(): number {
    return this.historyFrom;
  }

  /** The oldest revision a list may be read at exactly; older ones are gone (410). */
  get oldestExactRv(): number {
    return this.exactFrom;
  }

  /** History after `rv` (rv ≥ oldestRv), oldest first. */
  eventsAfter(rv: number): CachedEvent[] {
    let lo = 0;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.history[mid].rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return this.history.slice(lo);
  }

  /** The objects of a resource as they were at revision `rv` (oldestExactRv ≤ rv ≤ this.rv). */
  listAt(resource: string, namespace: string | undefined, rv: number): KubeObject[] {
    return this.page(resource, namespace, rv, '', Infinity, () => true).items;
  }

  /**
   * Up to `limit` selected objects after key `after`, as they were at revision `rv`: the current objects in key
   * order, merged with the state before each key's first change after `rv`. Costs O(log n + page + changes
   * since rv), not O(n).
   */
  page(
    resource: string,
    namespace: string | undefined,
    rv: number,
    after: string,
    limit: number,
    matches: (o: KubeObject) => boolean,
  ): Page {
    const index = this.objects.get(resource) ?? new SortedIndex();
    const [start, end] = index.range(namespace, after);
    // key → state at rv (undefined: absent) for every key of this range changed after rv
    const undo = new Map<string, KubeObject | undefined>();
    if (rv < this.rv) {
      for (const e of this.eventsAfter(rv)) {
        if (e.resource !== resource || (namespace !== undefined && e.namespace !== namespace)) continue;
        const key = objectKey(e.namespace, e.name);
        if (key > after && !undo.has(key)) undo.set(key, e.prev);
      }
    }
    const restored = [...undo.keys()].filter((k) => undo.get(k) && !index.get(k)).sort();
    const items: KubeObject[] = [];
    let i = start;
    let r = 0;
    let last = after;
    while (i < end || r < restored.length) {
      const fromIndex = r >= restored.length || (i < end && index.keyAt(i) < restored[r]);
      const key = fromIndex ? index.keyAt(i) : restored[r];
      const obj = undo.has(key) ? undo.get(key) : index.at(i);
      if (obj && matches(obj)) {
        if (items.length >= limit) break;
        items.push(obj);
      }
      last = key;
      if (fromIndex) i++;
      else r++;
    }
    // objects after the page at rv: the index's rest, less those absent at rv, plus those restored
    let remaining = end - i + (restored.length - r);
    const next = i < end ? index.keyAt(i) : undefined;
    for (const [k, state] of undo) if (!state && next !== undefined && k >= next && index.get(k)) remaining--;
    return { items, more: i < end || r < restored.length, remaining, last };
  }

  /** objects held per resource (storage key `<group>/<resource>`) */
  objectCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [resource, index] of this.objects) counts.set(resource, index.size);
    return counts;
  }

  addListener(listener: CacheListener): void {
    this.listeners.add(listener);
    let same = this.listenersOf.get(listener.resource);
    if (!same) this.listenersOf.set(listener.resource, (same = new Set()));
    same.add(listener);
  }

  removeListener(listener: CacheListener): void {
    this.listeners.delete(listener);
    const same = this.listenersOf.get(listener.resource);
    same?.delete(listener);
    if (same?.size === 0) this.listenersOf.delete(listener.resource);
  }

  /** Ends every watch of a storage key cleanly, as kube ends those of a deleted CRD: clients relist. */
  endWatchers(resource: string): void {
    for (const listener of [...(this.listenersOf.get(resource) ?? [])]) listener.close();
  }

  private bucket(resource: string): SortedIndex {
    let bucket = this.objects.get(resource);
    if (!bucket) {
      bucket = new SortedIndex();
      this.objects.set(resource, bucket);
    }
    return bucket;
  }
}
