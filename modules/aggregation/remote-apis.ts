/**
 * What discovery and OpenAPI merging see of the remote APIServices (modules/discovery's RemoteApis port): the
 * available ones, a change signal only when that list really changes, and GETs to their backends as the
 * aggregator itself, the backend's certificate checked as for proxied requests.
 */
import type { RemoteApis, RemoteGroupVersion, RemoteResponse } from '../discovery/index.js';
import { fetchUpstream } from '../proxy/index.js';
import { AGGREGATOR_USER, identityHeaders } from './identity-headers.js';
import { RemoteApiServices } from './remote-apiservices.js';

/** kube's discovery and OpenAPI downloads give up after a minute at most; the callers bound them tighter */
const FETCH_TIMEOUT_MS = 60_000;

export class RemoteApisView implements RemoteApis {
  private current: RemoteGroupVersion[] = [];
  private fingerprint = '';
  private readonly listeners = new Set<() => void>();

  constructor(private readonly remote: RemoteApiServices) {
    remote.onChange(() => this.refresh());
  }

  list(): readonly RemoteGroupVersion[] {
    return this.current;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async get(apiService: string, path: string, accept: string): Promise<RemoteResponse> {
    const found = this.remote.get(apiService);
    if (!found) throw new Error(`APIService ${apiService} is gone`);
    const resolved = this.remote.resolve(found);
    if (!resolved.ok) throw new Error(resolved.message);
    const answer = await fetchUpstream(
      this.remote.agents,
      this.remote.upstream(found, resolved),
      path,
      { ...identityHeaders(AGGREGATOR_USER), Accept: accept },
      FETCH_TIMEOUT_MS,
    );
    const etag = answer.headers.etag;
    return {
      status: answer.status,
      contentType: String(answer.headers['content-type'] ?? ''),
      body: answer.body,
      etag: typeof etag === 'string' ? etag : undefined,
    };
  }

  private refresh(): void {
    const next: RemoteGroupVersion[] = this.remote
      .list()
      .filter((a) => RemoteApiServices.available(a))
      .map((a) => ({
        group: a.spec?.group ?? '',
        version: a.spec?.version ?? '',
        groupPriorityMinimum: a.spec?.groupPriorityMinimum ?? 0,
        versionPriority: a.spec?.versionPriority ?? 0,
        apiService: a.metadata.name!,
      }))
      .sort((a, b) => a.apiService.localeCompare(b.apiService));
    // with the backend's address: a moved backend is fetched again
    const fingerprint = JSON.stringify([next, this.remote.list().map((a) => [a.metadata.name, a.spec])]);
    if (fingerprint === this.fingerprint) return;
    this.fingerprint = fingerprint;
    this.current = next;
    for (const listener of this.listeners) listener();
  }
}
