/**
 * The port through which discovery and OpenAPI see API groups that other servers serve (APIServices with
 * `spec.service`, as kube-aggregator merges them). The aggregation layer implements it; without it the host
 * publishes its own groups only.
 */

/** A group/version another server serves: an available APIService that names a service. */
export interface RemoteGroupVersion {
  group: string;
  version: string;
  groupPriorityMinimum: number;
  versionPriority: number;
  /** the APIService's name, e.g. v1alpha1.widgets.example.com */
  apiService: string;
}

export interface RemoteResponse {
  status: number;
  contentType: string;
  body: Buffer;
  etag?: string;
}

export interface RemoteApis {
  /** the remote group/versions now (available ones only) */
  list(): readonly RemoteGroupVersion[];
  /** called whenever list() changes (an APIService added, removed, changed, became (un)available); returns unsubscribe */
  onChange(listener: () => void): () => void;
  /** a GET to the backend of `apiService` as the host itself (path with query); rejects when unreachable */
  get(apiService: string, path: string, accept: string): Promise<RemoteResponse>;
}

/** Nest token under which the aggregation layer provides its RemoteApis (optional: standalone has none). */
export const REMOTE_APIS = Symbol('RemoteApis');
