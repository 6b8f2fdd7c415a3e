/**
 * The /openapi/v3 index on an aggregation host: ours plus `apis/<group>/<version>` of each remote APIService,
 * pointing at `/openapi/v3/apis/<group>/<version>?hash=<the backend's hash>` (the hash read from the backend's
 * own index). The document behind that URL is the backend's: the proxy forwards it.
 */
import type { ResourceDefinition } from '../registry/index.js';
import {
  memo,
  pairKey,
  RemoteCache,
  type RemoteApis,
  type RemoteCacheOptions,
  type RemoteFetched,
  type RemoteGroupVersion,
  type RemoteSnapshot,
} from '../discovery/index.js';
import { openApiV3Index, sortedKeys, type OpenApiV3Index } from './v3.js';

/** The backend's entry for the APIService's group-version: its hash ('' when its URL has none); null: absent. */
export interface RemoteV3Entry {
  hash: string;
}

export type RemoteOpenApiV3 = RemoteCache<RemoteV3Entry | null>;
export type RemoteOpenApiV3Snapshot = RemoteSnapshot<RemoteV3Entry | null>;

/** the index key of a group-version; the core group's is `api/v1` (a sidecar's upstream publishes it) */
const v3Key = (s: RemoteGroupVersion): string =>
  s.group ? `apis/${s.group}/${s.version}` : `api/${s.version}`;

/** The backend's /openapi/v3 entry for the group-version; rejects when its index cannot be read. */
export async function fetchOpenApiV3Entry(
  remote: RemoteApis,
  service: RemoteGroupVersion,
): Promise<RemoteFetched<RemoteV3Entry | null>> {
  const r = await remote.get(service.apiService, '/openapi/v3', 'application/json');
  // a backend without OpenAPI v3 (kube would convert its v2 document; we publish no entry)
  if (r.status === 404) return { value: null, fingerprint: 'null' };
  if (r.status !== 200) throw new Error(`/openapi/v3 answered ${r.status}`);
  const index = JSON.parse(r.body.toString('utf8')) as {
    paths?: Record<string, { serverRelativeURL?: unknown }>;
  };
  const url = index.paths?.[v3Key(service)]?.serverRelativeURL;
  if (typeof url !== 'string') return { value: null, fingerprint: 'null' };
  const hash = new URL(url, 'http://backend').searchParams.get('hash') ?? '';
  return { value: { hash }, fingerprint: hash };
}

/** Every remote APIService's /openapi/v3 entry, kept fresh (kube's download timeout: 60 s). */
export function remoteOpenApiV3(remote: RemoteApis, options: RemoteCacheOptions = {}): RemoteOpenApiV3 {
  return new RemoteCache(remote, fetchOpenApiV3Entry, { timeoutMs: 60_000, ...options });
}

/** GET /openapi/v3 on an aggregation host; a remote group-version replaces a local one (the proxy serves it). */
export function mergedOpenApiV3Index(
  defs: readonly ResourceDefinition[],
  remote: RemoteOpenApiV3Snapshot,
): OpenApiV3Index {
  const published = remote.entries.filter((e) => e.value);
  if (published.length === 0) return openApiV3Index(defs);
  return memo(pairKey(defs, remote), 'merged:openapi3:index', () => {
    const paths = { ...openApiV3Index(defs).paths };
    for (const e of published) {
      const key = v3Key(e.service);
      const hash = e.value!.hash;
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}${hash ? `?hash=${hash}` : ''}` };
    }
    return { paths: sortedKeys(Object.entries(paths)) };
  });
}
