/** The unaggregated discovery documents: GET /api, /apis, /apis/<group>, /api/v1 and /apis/<group>/<version>. */
import { groupVersion, type ResourceDefinition } from '../registry/index.js';
import { memo } from './memo.js';
import { apiResources, type APIResource } from './resources.js';
import { groupVersions, orderedGroups } from './versions.js';

export interface ServerAddressByClientCIDR {
  clientCIDR: string;
  serverAddress: string;
}

export interface APIVersions {
  kind: 'APIVersions';
  versions: string[];
  serverAddressByClientCIDRs: ServerAddressByClientCIDR[];
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroup[];
}

export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion?: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

/**
 * GET /api. `serverAddress` is host:port as clients reach this server; kube answers every client with the
 * catch-all CIDR unless told otherwise.
 */
export function apiVersions(serverAddress: string, clientCIDR = '0.0.0.0/0'): APIVersions {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR, serverAddress }],
  };
}

function toGroup(group: string, versions: string[]): APIGroup {
  const list = versions.map((version) => ({ groupVersion: groupVersion(group, version), version }));
  return { name: group, versions: list, preferredVersion: list[0] };
}

/** GET /apis: every named group, in kube's order. */
export function apiGroupList(defs: readonly ResourceDefinition[]): APIGroupList {
  return memo(defs, 'legacy:groups', () => ({
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: orderedGroups(defs, 'apiservice').map((g) => toGroup(g.group, g.versions)),
  }));
}

/** GET /apis/<group>; undefined for an unknown group (kube answers 404). */
export function apiGroup(
  defs: readonly ResourceDefinition[],
  group: string,
): (APIGroup & { kind: 'APIGroup'; apiVersion: 'v1' }) | undefined {
  // only served groups are cached: a key per name a client makes up would grow without bound
  if (group === '' || !apiGroupList(defs).groups.some((g) => g.name === group)) return undefined;
  return memo(defs, `legacy:group:${group}`, () => {
    const versions = groupVersions(defs, group);
    if (versions.length === 0) return undefined;
    return { kind: 'APIGroup' as const, apiVersion: 'v1' as const, ...toGroup(group, versions) };
  });
}

/**
 * GET /api/v1 (group '') or /apis/<group>/<version>; undefined when nothing serves that group-version.
 * kube leaves apiVersion out of the core group's list and sets it for named groups.
 */
export function apiResourceList(
  defs: readonly ResourceDefinition[],
  group: string,
  version: string,
): APIResourceList | undefined {
  return memo(defs, `legacy:resources:${group}/${version}`, () => {
    if (!groupVersions(defs, group).includes(version)) return undefined;
    const resources = apiResources(defs, group, version);
    if (group === '') return { kind: 'APIResourceList' as const, groupVersion: version, resources };
    return {
      kind: 'APIResourceList' as const,
      apiVersion: 'v1' as const,
      groupVersion: groupVersion(group, version),
      resources,
    };
  });
}
