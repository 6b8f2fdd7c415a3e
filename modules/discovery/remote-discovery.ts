/**
 * The discovery of one remote group-version, fetched as kube-aggregator fetches it: the backend's /apis in the
 * aggregated form (the entry of the APIService's group-version), else its /apis/<group>/<version>
 * APIResourceList converted. A backend that is unavailable (503) has no fallback.
 */
import type { APIResourceDiscovery, APISubresourceDiscovery, APIVersionDiscovery } from './aggregated.js';
import { resourceDiscovery } from './aggregated.js';
import { RemoteCache, type RemoteCacheOptions, type RemoteFetched } from './remote-cache.js';
import type { RemoteApis, RemoteGroupVersion } from './remote-apis.js';
import type { APIResource, GroupVersionKind } from './resources.js';

/** What kube-aggregator asks a backend's /apis for: v2, else v2beta1 (both have the same shape). */
export const AGGREGATED_DISCOVERY_ACCEPT = [
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
].join(',');

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);

/** True for an answer in the aggregated form: JSON with g=apidiscovery.k8s.io, v=v2|v2beta1, as=APIGroupDiscoveryList. */
function isAggregated(contentType: string): boolean {
  const [type, ...rest] = contentType.split(';').map((p) => p.trim());
  if (type.toLowerCase() !== 'application/json') return false;
  const params = new Map(
    rest.map((p) => {
      const eq = p.indexOf('=');
      return [p.slice(0, eq).trim(), p.slice(eq + 1).trim()] as [string, string];
    }),
  );
  return (
    params.get('g') === 'apidiscovery.k8s.io' &&
    (params.get('v') === 'v2' || params.get('v') === 'v2beta1') &&
    params.get('as') === 'APIGroupDiscoveryList'
  );
}

/** kube fills a missing responseKind with an empty one (clients of 1.26 crash on null). */
function kindOf(v: unknown): GroupVersionKind {
  const k = isObject(v) ? v : {};
  return { group: text(k.group), version: text(k.version), kind: text(k.kind) };
}

/** A backend's resource entry in our field order, unknown fields dropped (kube decodes into its types too). */
function resourceEntry(r: Json): APIResourceDiscovery {
  const entry: APIResourceDiscovery = {
    resource: text(r.resource),
    responseKind: kindOf(r.responseKind),
    scope: text(r.scope) as APIResourceDiscovery['scope'],
    singularResource: text(r.singularResource),
    verbs: texts(r.verbs),
  };
  const shortNames = texts(r.shortNames);
  if (shortNames.length) entry.shortNames = shortNames;
  const categories = texts(r.categories);
  if (categories.length) entry.categories = categories;
  const subs = Array.isArray(r.subresources) ? r.subresources.filter(isObject) : [];
  if (subs.length) {
    entry.subresources = subs.map((s): APISubresourceDiscovery => ({
      subresource: text(s.subresource),
      responseKind: kindOf(s.responseKind),
      verbs: texts(s.verbs),
    }));
  }
  return entry;
}

function versionEntry(version: string, resources: APIResourceDiscovery[]): APIVersionDiscovery {
  return resources.length ? { version, resources, freshness: 'Current' } : { version, freshness: 'Current' };
}

function parseJson(body: Buffer, what: string): Json {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!isObject(parsed)) throw new Error(`${what} is no JSON object`);
  return parsed;
}

/** The group-version's entry of a backend's APIGroupDiscoveryList; an empty version when the list lacks it. */
function fromAggregated(list: Json, service: RemoteGroupVersion): APIVersionDiscovery {
  const items = Array.isArray(list.items) ? list.items.filter(isObject) : [];
  for (const item of items) {
    if (!isObject(item.metadata) || text(item.metadata.name) !== service.group) continue;
    const versions = Array.isArray(item.versions) ? item.versions.filter(isObject) : [];
    const found = versions.find((v) => text(v.version) === service.version);
    if (!found) continue;
    const resources = Array.isArray(found.resources) ? found.resources.filter(isObject) : [];
    return versionEntry(service.version, resources.map(resourceEntry));
  }
  return versionEntry(service.version, []);
}

function fromResourceList(list: Json, service: RemoteGroupVersion): APIVersionDiscovery {
  const raw = Array.isArray(list.resources) ? list.resources.filter(isObject) : [];
  const resources = raw
    .filter((r) => typeof r.name === 'string')
    .map((r): APIResource => ({
      name: r.name as string,
      singularName: text(r.singularName),
      namespaced: r.namespaced === true,
      ...(typeof r.group === 'string' ? { group: r.group } : {}),
      ...(typeof r.version === 'string' ? { version: r.version } : {}),
      kind: text(r.kind),
      verbs: texts(r.verbs),
      shortNames: texts(r.shortNames),
      categories: texts(r.categories),
    }));
  return versionEntry(service.version, resourceDiscovery(resources));
}

/** Fetches the discovery of one remote group-version; rejects when the backend gives none. */
export async function fetchVersionDiscovery(
  remote: RemoteApis,
  service: RemoteGroupVersion,
): Promise<RemoteFetched<APIVersionDiscovery>> {
  const done = (value: APIVersionDiscovery): RemoteFetched<APIVersionDiscovery> => ({
    value,
    fingerprint: JSON.stringify(value),
  });
  const apis = await remote.get(service.apiService, '/apis', AGGREGATED_DISCOVERY_ACCEPT);
  if (apis.status === 503) throw new Error(`/apis answered 503`);
  if (apis.status === 200 && isAggregated(apis.contentType)) {
    return done(fromAggregated(parseJson(apis.body, '/apis'), service));
  }
  const path = `/apis/${service.group}/${service.version}`;
  const legacy = await remote.get(service.apiService, path, 'application/json');
  if (legacy.status !== 200) throw new Error(`${path} answered ${legacy.status}`);
  return done(fromResourceList(parseJson(legacy.body, path), service));
}

export type RemoteDiscovery = RemoteCache<APIVersionDiscovery>;

/** The discovery of every remote group-version, kept fresh (kube's timeout for a discovery fetch: 5 s). */
export function remoteDiscovery(remote: RemoteApis, options: RemoteCacheOptions = {}): RemoteDiscovery {
  return new RemoteCache(remote, fetchVersionDiscovery, { timeoutMs: 5000, ...options });
}
