/**
 * The upstream's group/versions as discovery's RemoteApis port lists them (one entry per group/version, named
 * as kube names APIServices, `<version>.<group>`; the core group's `v1.`), read from the upstream's /api
 * (APIVersions) and /apis (APIGroupList). Priorities keep the upstream's own order: its groups in the order
 * its /apis gives them, each group's versions preferred first. A group this server serves is left out (the
 * local group wins a clash). Pure.
 */
import type { RemoteGroupVersion } from '../discovery/index.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** above every built-in group's priority (kube's highest is 18100), so that the upstream's order is kept */
const TOP_PRIORITY = 20_000;

/** The upstream's groups, each with its versions preferred first; the core group ('') first. */
export interface UpstreamGroup {
  group: string;
  versions: string[];
}

/** GET /api (APIVersions) and GET /apis (APIGroupList) as the upstream answered them. */
export function upstreamGroups(apiVersions: unknown, groupList: unknown): UpstreamGroup[] {
  const out: UpstreamGroup[] = [];
  const core = isObject(apiVersions) && Array.isArray(apiVersions.versions) ? apiVersions.versions : [];
  const coreVersions = core.filter((v): v is string => typeof v === 'string');
  if (coreVersions.length) out.push({ group: '', versions: coreVersions });
  const groups = isObject(groupList) && Array.isArray(groupList.groups) ? groupList.groups : [];
  for (const g of groups) {
    if (!isObject(g) || typeof g.name !== 'string' || !g.name) continue;
    const listed = (Array.isArray(g.versions) ? g.versions : [])
      .map((v) => (isObject(v) && typeof v.version === 'string' ? v.version : ''))
      .filter(Boolean);
    const preferred =
      isObject(g.preferredVersion) && typeof g.preferredVersion.version === 'string'
        ? g.preferredVersion.version
        : listed[0];
    const versions = preferred ? [preferred, ...listed.filter((v) => v !== preferred)] : listed;
    if (versions.length) out.push({ group: g.name, versions });
  }
  return out;
}

/** The entries of the groups this server does not serve, in the upstream's order. */
export function upstreamGroupVersions(
  groups: readonly UpstreamGroup[],
  local: ReadonlySet<string>,
): RemoteGroupVersion[] {
  const out: RemoteGroupVersion[] = [];
  groups.forEach((g, i) => {
    if (local.has(g.group)) return;
    g.versions.forEach((version, j) =>
      out.push({
        group: g.group,
        version,
        groupPriorityMinimum: TOP_PRIORITY + groups.length - i,
        versionPriority: g.versions.length - j,
        apiService: `${version}.${g.group}`,
      }),
    );
  });
  return out;
}

/** The upstream's groups this server also serves (each a clash the local group wins). */
export function clashes(groups: readonly UpstreamGroup[], local: ReadonlySet<string>): string[] {
  return groups.filter((g) => local.has(g.group)).map((g) => g.group || 'core (/api)');
}
