/**
 * Discovery on an aggregation host: the local groups and the group-versions remote APIServices serve, in one
 * /apis, /apis/<group> and aggregated document, ordered as kube-aggregator orders APIServices. Local
 * group-versions keep today's priorities (versions.ts); a remote APIService for a group-version the host also
 * serves takes its place, as the proxy sends that group-version's requests to the backend.
 * Documents are cached per (definitions, remote snapshot): built once per change, never per request.
 */
import { groupVersion, type ResourceDefinition } from '../registry/index.js';
import {
  aggregatedDiscovery,
  aggregatedDiscoveryResponse,
  conditionalDiscovery,
  discoveryETag,
  type APIGroupDiscovery,
  type APIGroupDiscoveryList,
  type APIVersionDiscovery,
  type DiscoveryResponse,
  type DiscoveryVersion,
} from './aggregated.js';
import { apiGroup, apiGroupList, type APIGroup, type APIGroupList } from './legacy.js';
import { memo, pairKey } from './memo.js';
import type { RemoteEntry, RemoteSnapshot } from './remote-cache.js';
import {
  localGroupVersions,
  orderByApiService,
  orderByGroupPriority,
  type PrioritizedGroup,
  type PrioritizedGroupVersion,
} from './versions.js';

export type RemoteDiscoverySnapshot = RemoteSnapshot<APIVersionDiscovery>;

interface MergedGroupVersion extends PrioritizedGroupVersion {
  remote?: RemoteEntry<APIVersionDiscovery>;
}

function mergedGroupVersions(
  defs: readonly ResourceDefinition[],
  remote: RemoteDiscoverySnapshot,
): MergedGroupVersion[] {
  // the core group is not served through APIServices (kube skips a remote one too)
  const remotes = remote.entries.filter((e) => e.service.group !== '');
  const taken = new Set(remotes.map((e) => `${e.service.group}/${e.service.version}`));
  const local = localGroupVersions(defs).filter((gv) => !taken.has(`${gv.group}/${gv.version}`));
  return [
    ...local,
    ...remotes.map((e) => ({
      group: e.service.group,
      version: e.service.version,
      groupPriority: e.service.groupPriorityMinimum,
      versionPriority: e.service.versionPriority,
      name: e.service.apiService,
      remote: e,
    })),
  ];
}

function toGroup(g: PrioritizedGroup<PrioritizedGroupVersion>): APIGroup {
  const versions = g.versions.map((v) => ({
    groupVersion: groupVersion(g.group, v.version),
    version: v.version,
  }));
  return { name: g.group, versions, preferredVersion: versions[0] };
}

/** GET /apis with the remote groups. */
export function mergedApiGroupList(
  defs: readonly ResourceDefinition[],
  remote: RemoteDiscoverySnapshot,
): APIGroupList {
  if (remote.entries.length === 0) return apiGroupList(defs);
  return memo(pairKey(defs, remote), 'merged:groups', () => ({
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: orderByApiService(mergedGroupVersions(defs, remote)).map(toGroup),
  }));
}

/** GET /apis/<group> (local, remote or both); undefined when nothing serves the group (404). */
export function mergedApiGroup(
  defs: readonly ResourceDefinition[],
  remote: RemoteDiscoverySnapshot,
  group: string,
): (APIGroup & { kind: 'APIGroup'; apiVersion: 'v1' }) | undefined {
  if (!remote.entries.some((e) => e.service.group === group)) return apiGroup(defs, group);
  const found = mergedApiGroupList(defs, remote).groups.find((g) => g.name === group);
  return found && { kind: 'APIGroup', apiVersion: 'v1', ...found };
}

/** A remote version as kube's discovery manager publishes it: Stale (with what it had) after a failed fetch. */
function remoteVersion(entry: RemoteEntry<APIVersionDiscovery>): APIVersionDiscovery {
  const version = entry.service.version;
  const known = entry.value ? { ...entry.value, version } : { version };
  return { ...known, freshness: entry.state === 'stale' ? 'Stale' : 'Current' };
}

/** The aggregated /apis document with the remote group-versions whose discovery was fetched at least once. */
export function mergedAggregatedDiscovery(
  defs: readonly ResourceDefinition[],
  remote: RemoteDiscoverySnapshot,
  version: DiscoveryVersion,
): APIGroupDiscoveryList {
  if (remote.entries.length === 0) return aggregatedDiscovery(defs, 'apis', version);
  return memo(pairKey(defs, remote), `merged:aggregated:${version}`, () => {
    const local = new Map(
      aggregatedDiscovery(defs, 'apis', version).items.map((g) => [g.metadata.name ?? '', g.versions]),
    );
    // a remote group-version is listed once its first fetch ended (kube's manager adds it when it syncs)
    const served = mergedGroupVersions(defs, remote).filter((gv) => gv.remote?.state !== 'pending');
    const items = orderByGroupPriority(served).map((g): APIGroupDiscovery => ({
      metadata: { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) =>
        v.remote ? remoteVersion(v.remote) : local.get(g.group)!.find((l) => l.version === v.version)!,
      ),
    }));
    return {
      kind: 'APIGroupDiscoveryList',
      apiVersion: `apidiscovery.k8s.io/${version}`,
      metadata: {},
      items,
    };
  });
}

/** aggregatedDiscoveryResponse for /apis on an aggregation host: its ETag follows the merged content. */
export function mergedAggregatedDiscoveryResponse(
  defs: readonly ResourceDefinition[],
  remote: RemoteDiscoverySnapshot,
  version: DiscoveryVersion,
  contentType: string,
  ifNoneMatch?: string,
): DiscoveryResponse {
  if (remote.entries.length === 0) {
    return aggregatedDiscoveryResponse(defs, 'apis', version, contentType, ifNoneMatch);
  }
  const { json, etag } = memo(pairKey(defs, remote), `merged:aggregated-json:${version}`, () => {
    const body = JSON.stringify(mergedAggregatedDiscovery(defs, remote, version));
    return { json: body, etag: discoveryETag(body) };
  });
  return conditionalDiscovery(json, etag, contentType, ifNoneMatch);
}
