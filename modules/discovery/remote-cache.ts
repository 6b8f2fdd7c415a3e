/**
 * One document per remote APIService, fetched from its backend and kept fresh the way kube-aggregator's
 * controllers do: fetched again whenever the set of APIServices changes and on a fixed period (a minute), the
 * last good value kept when a fetch fails (then marked stale). Readers take `snapshot`, an immutable value whose
 * identity changes only when what it holds changes, so documents built from it can be cached per snapshot.
 */
import type { RemoteApis, RemoteGroupVersion } from './remote-apis.js';

export interface RemoteFetched<T> {
  value: T;
  /** equal fingerprints mean equal values: an unchanged document keeps the snapshot (and every ETag) as it is */
  fingerprint: string;
}

export type RemoteFetch<T> = (remote: RemoteApis, service: RemoteGroupVersion) => Promise<RemoteFetched<T>>;

export interface RemoteEntry<T> {
  readonly service: RemoteGroupVersion;
  /** the last value fetched; undefined until a fetch succeeds */
  readonly value?: T;
  /** pending: not fetched yet; current: the last fetch succeeded; stale: the last fetch failed */
  readonly state: 'pending' | 'current' | 'stale';
}

export interface RemoteSnapshot<T> {
  /** in the order of RemoteApis.list() */
  readonly entries: readonly RemoteEntry<T>[];
}

export interface RemoteCacheOptions {
  /** how often every APIService is fetched again (kube: every minute) */
  intervalMs?: number;
  /** a fetch that takes longer fails (kube: 5 s for discovery, 60 s for OpenAPI) */
  timeoutMs?: number;
  /** told about each failed fetch (the APIService's name and why) */
  onError?: (apiService: string, error: Error) => void;
}

interface Slot<T> {
  service: RemoteGroupVersion;
  value?: T;
  fingerprint?: string;
  state: RemoteEntry<T>['state'];
}

const EMPTY = Object.freeze({ entries: Object.freeze([]) });

export class RemoteCache<T> {
  private readonly slots = new Map<string, Slot<T>>();
  private current: RemoteSnapshot<T> = EMPTY;
  private currentKey = '[]';
  private readonly listeners = new Set<() => void>();
  private running?: Promise<void>;
  private again = false;
  private closed = false;
  private readonly unsubscribe: () => void;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly remote: RemoteApis,
    private readonly fetch: RemoteFetch<T>,
    private readonly options: RemoteCacheOptions = {},
  ) {
    this.unsubscribe = remote.onChange(() => {
      this.sync();
      void this.refresh();
    });
    this.sync();
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), options.intervalMs ?? 60_000);
    this.timer.unref();
  }

  get snapshot(): RemoteSnapshot<T> {
    return this.current;
  }

  /** Called after each change of `snapshot`. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Fetches every APIService again; resolves once no fetch is due any more. */
  refresh(): Promise<void> {
    this.again = true;
    this.running ??= this.loop().finally(() => (this.running = undefined));
    return this.running;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.unsubscribe();
    this.listeners.clear();
  }

  private async loop(): Promise<void> {
    while (this.again && !this.closed) {
      this.again = false;
      this.sync();
      await Promise.all([...this.slots.values()].map((slot) => this.fetchOne(slot)));
    }
  }

  private async fetchOne(slot: Slot<T>): Promise<void> {
    let fetched: RemoteFetched<T> | undefined;
    let failure: Error | undefined;
    try {
      fetched = await this.withTimeout(this.fetch(this.remote, slot.service));
    } catch (e) {
      failure = e instanceof Error ? e : new Error(String(e));
    }
    // the APIService went away (or was replaced) while its document was on its way
    if (this.closed || this.slots.get(slot.service.apiService) !== slot) return;
    if (fetched) {
      slot.value = fetched.value;
      slot.fingerprint = fetched.fingerprint;
      slot.state = 'current';
    } else {
      slot.state = 'stale';
      this.options.onError?.(slot.service.apiService, failure!);
    }
    this.publish();
  }

  private withTimeout<R>(promise: Promise<R>): Promise<R> {
    const ms = this.options.timeoutMs;
    if (ms === undefined) return promise;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  /** Follows RemoteApis.list(): new APIServices wait for their first fetch, removed ones are forgotten. */
  private sync(): void {
    if (this.closed) return;
    const listed = this.remote.list();
    const names = new Set(listed.map((s) => s.apiService));
    for (const name of this.slots.keys()) if (!names.has(name)) this.slots.delete(name);
    for (const service of listed) {
      const slot = this.slots.get(service.apiService);
      if (slot) slot.service = { ...service };
      else this.slots.set(service.apiService, { service: { ...service }, state: 'pending' });
    }
    this.publish(listed.map((s) => s.apiService));
  }

  private publish(order?: string[]): void {
    const names = order ?? this.current.entries.map((e) => e.service.apiService);
    const slots = names.map((n) => this.slots.get(n)).filter((s): s is Slot<T> => s !== undefined);
    const key = JSON.stringify(slots.map((s) => [s.service, s.state, s.fingerprint ?? null]));
    if (key === this.currentKey) return;
    this.currentKey = key;
    this.current = Object.freeze({
      entries: Object.freeze(
        slots.map((s) =>
          Object.freeze({ service: Object.freeze({ ...s.service }), value: s.value, state: s.state }),
        ),
      ),
    });
    for (const listener of this.listeners) listener();
  }
}
