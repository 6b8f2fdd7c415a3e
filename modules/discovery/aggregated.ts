/**
 * Aggregated discovery (apidiscovery.k8s.io v2 and v2beta1): every group, version and resource of /api or /apis
 * in one document, which kubectl 1.32 asks for first. Served with an ETag so clients can revalidate for free.
 */
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../registry/index.js';
import { memo } from './memo.js';
import { apiResources, type APIResource, type GroupVersionKind } from './resources.js';
import { groupVersions, orderedGroups } from './versions.js';

export type DiscoveryVersion = 'v2' | 'v2beta1';

export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: string[];
}

export interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

export interface APIVersionDiscovery {
  version: string;
  /** left out when empty (a remote version whose discovery never arrived) */
  resources?: APIResourceDiscovery[];
  /** Stale: the server that serves this version did not answer its last discovery request */
  freshness: 'Current' | 'Stale';
}

export interface APIGroupDiscovery {
  metadata: { name?: string; creationTimestamp: null };
  versions: APIVersionDiscovery[];
}

export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: `apidiscovery.k8s.io/${DiscoveryVersion}`;
  metadata: Record<string, never>;
  items: APIGroupDiscovery[];
}

/**
 * The conversion kube applies to an APIResourceList (its own and, in the aggregator, a backend's): subresources
 * nest under their parent (a parent the list lacks is made up, as kube does); a responseKind carries
 * group/version only where the list entry did (i.e. for foreign kinds such as Scale).
 */
export function resourceDiscovery(list: readonly APIResource[]): APIResourceDiscovery[] {
  const resources: APIResourceDiscovery[] = [];
  const byName = new Map<string, APIResourceDiscovery>();
  const kindOf = (r: APIResource): GroupVersionKind => ({
    group: r.group ?? '',
    version: r.version ?? '',
    kind: r.kind ?? '',
  });
  const scopeOf = (r: APIResource): APIResourceDiscovery['scope'] =>
    r.namespaced ? 'Namespaced' : 'Cluster';
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const entry: APIResourceDiscovery = {
      resource: r.name,
      responseKind: kindOf(r),
      scope: scopeOf(r),
      singularResource: r.singularName ?? '',
      verbs: r.verbs ?? [],
    };
    if (r.shortNames?.length) entry.shortNames = r.shortNames;
    if (r.categories?.length) entry.categories = r.categories;
    resources.push(entry);
    byName.set(r.name, entry);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parentName = r.name.slice(0, slash);
    let parent = byName.get(parentName);
    if (!parent) {
      parent = {
        resource: parentName,
        responseKind: { group: '', version: '', kind: '' },
        scope: scopeOf(r),
        singularResource: '',
        verbs: [],
      };
      resources.push(parent);
      byName.set(parentName, parent);
    }
    (parent.subresources ??= []).push({
      subresource: r.name.slice(slash + 1),
      responseKind: r.kind ? kindOf(r) : { group: '', version: '', kind: '' },
      verbs: r.verbs ?? [],
    });
  }
  return resources;
}

function versionDiscovery(
  defs: readonly ResourceDefinition[],
  group: string,
  version: string,
): APIVersionDiscovery {
  return { version, resources: resourceDiscovery(apiResources(defs, group, version)), freshness: 'Current' };
}

/** The APIGroupDiscoveryList for GET /api (prefix 'api', the core group) or GET /apis (every named group). */
export function aggregatedDiscovery(
  defs: readonly ResourceDefinition[],
  prefix: 'api' | 'apis',
  version: DiscoveryVersion,
): APIGroupDiscoveryList {
  return memo(defs, `aggregated:${prefix}:${version}`, () => {
    const groups =
      prefix === 'api'
        ? [{ group: '', versions: groupVersions(defs, '') }].filter((g) => g.versions.length > 0)
        : orderedGroups(defs, 'group');
    const items = groups.map((g): APIGroupDiscovery => ({
      metadata: g.group === '' ? { creationTimestamp: null } : { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) => versionDiscovery(defs, g.group, v)),
    }));
    return {
      kind: 'APIGroupDiscoveryList',
      apiVersion: `apidiscovery.k8s.io/${version}`,
      metadata: {},
      items,
    };
  });
}

/** kube's entity tag for discovery: the uppercase hex sha512 of the JSON document, in double quotes. */
export function discoveryETag(json: string): string {
  return `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"`;
}

export interface DiscoveryResponse {
  status: 200 | 304;
  headers: Record<string, string>;
  /** JSON body; empty for 304 */
  body: string;
}

/**
 * The whole aggregated answer: body, ETag, and 304 when If-None-Match carries the current tag. kube compares the
 * header verbatim and marks the answer cacheable and varying by Accept.
 */
export function aggregatedDiscoveryResponse(
  defs: readonly ResourceDefinition[],
  prefix: 'api' | 'apis',
  version: DiscoveryVersion,
  contentType: string,
  ifNoneMatch?: string,
): DiscoveryResponse {
  const { json, etag } = memo(defs, `aggregated-json:${prefix}:${version}`, () => {
    const text = JSON.stringify(aggregatedDiscovery(defs, prefix, version));
    return { json: text, etag: discoveryETag(text) };
  });
  return conditionalDiscovery(json, etag, contentType, ifNoneMatch);
}

/** The answer for a discovery document and its tag: 304 when If-None-Match carries the tag. */
export function conditionalDiscovery(
  json: string,
  etag: string,
  contentType: string,
  ifNoneMatch?: string,
): DiscoveryResponse {
  const headers: Record<string, string> = { ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' };
  if (ifNoneMatch === etag) return { status: 304, headers, body: '' };
  return { status: 200, headers: { ...headers, 'Content-Type': contentType }, body: json };
}

export { negotiateDiscovery, type DiscoveryNegotiation } from './negotiate.js';
