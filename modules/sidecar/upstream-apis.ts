/**
 * The upstream cluster as discovery and OpenAPI merging see it (modules/discovery's RemoteApis port, as the
 * aggregation layer presents remote APIServices): one entry per upstream group/version that this server does not
 * serve, read from the upstream's /api and /apis at start and every 30 s, and GETs to the upstream with this
 * server's own credentials. Every entry fetches the same few documents (/apis, /openapi/v2, /openapi/v3), so
 * identical GETs under way are shared: one request per document per refresh, whatever the number of groups.
 */
import type { RemoteApis, RemoteGroupVersion, RemoteResponse } from '../discovery/index.js';
import { fetchUpstream, type UpstreamAgents } from '../proxy/index.js';
import type { Registry } from '../registry/index.js';
import { localGroups } from './local-groups.js';
import { clashes, upstreamGroups, upstreamGroupVersions, type UpstreamGroup } from './upstream-groups.js';
import type { UpstreamTarget } from './upstream-target.js';

/** how often the upstream's groups are read again (a CRD added upstream shows within this) */
const POLL_MS = 30_000;
/** kube's discovery and OpenAPI downloads give up after a minute at most; the callers bound them tighter */
const FETCH_TIMEOUT_MS = 60_000;
const LIST_TIMEOUT_MS = 10_000;

export class UpstreamApis implements RemoteApis {
  private groups: UpstreamGroup[] = [];
  private current: RemoteGroupVersion[] = [];
  private fingerprint = '[]';
  private readonly listeners = new Set<() => void>();
  private readonly inflight = new Map<string, Promise<RemoteResponse>>();
  private readonly warned = new Set<string>();
  private failing = false;
  private timer?: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly target: UpstreamTarget,
    private readonly agents: UpstreamAgents,
    private readonly registry: Registry,
    private readonly warn: (message: string) => void,
  ) {
    // a CRD group served here from now on leaves the upstream's list (and comes back when it goes)
    this.unsubscribe = registry.subscribe(() => this.publish());
  }

  /** Reads the upstream's groups now and then every 30 s; resolves after the first read, failed or not. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.unsubscribe();
    this.listeners.clear();
  }

  list(): readonly RemoteGroupVersion[] {
    return this.current;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(_apiService: string, path: string, accept: string): Promise<RemoteResponse> {
    const key = `${accept}\n${path}`;
    let answer = this.inflight.get(key);
    if (!answer) {
      answer = this.fetch(path, accept, FETCH_TIMEOUT_MS).finally(() => this.inflight.delete(key));
      this.inflight.set(key, answer);
    }
    return answer;
  }

  /** Reads /api and /apis again; a failure keeps what was known (logged once until it works again). */
  async refresh(): Promise<void> {
    try {
      const [api, apis] = await Promise.all([
        this.fetch('/api', 'application/json', LIST_TIMEOUT_MS),
        this.fetch('/apis', 'application/json', LIST_TIMEOUT_MS),
      ]);
      if (api.status !== 200 || apis.status !== 200)
        throw new Error(`/api answered ${api.status}, /apis answered ${apis.status}`);
      this.groups = upstreamGroups(JSON.parse(api.body.toString()), JSON.parse(apis.body.toString()));
      if (this.failing) this.warn('the upstream answers its discovery again');
      this.failing = false;
    } catch (e) {
      if (!this.failing) this.warn(`the upstream's discovery could not be read: ${(e as Error).message}`);
      this.failing = true;
    }
    this.publish();
  }

  private async fetch(path: string, accept: string, timeoutMs: number): Promise<RemoteResponse> {
    const answer = await fetchUpstream(
      this.agents,
      this.target.upstream,
      this.target.prefix + path,
      { ...this.target.credentials(), Accept: accept },
      timeoutMs,
    );
    const etag = answer.headers.etag;
    return {
      status: answer.status,
      contentType: String(answer.headers['content-type'] ?? ''),
      body: answer.body,
      etag: typeof etag === 'string' ? etag : undefined,
    };
  }

  private publish(): void {
    const local = localGroups(this.registry);
    for (const group of clashes(this.groups, local)) {
      if (this.warned.has(group)) continue;
      this.warned.add(group);
      this.warn(`group ${group} is served both here and by the upstream: this server's is used`);
    }
    const next = upstreamGroupVersions(this.groups, local);
    const fingerprint = JSON.stringify(next);
    if (fingerprint === this.fingerprint) return;
    this.fingerprint = fingerprint;
    this.current = next;
    for (const listener of this.listeners) listener();
  }
}
