/**
 * Ordering of groups and versions as kube-apiserver's aggregator publishes them: groups by a fixed priority
 * table (unknown groups, e.g. CRD groups, get the priority kube gives CRD APIServices), versions by priority
 * then kube-aware version order, the first version being the preferred one.
 */
import type { ResourceDefinition } from '../registry/index.js';

const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function parseKubeVersion(v: string): { major: number; stage: number; minor: number } | undefined {
  const m = kubeVersion.exec(v);
  if (!m) return undefined;
  const stage = m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2;
  return { major: Number(m[1]), stage, minor: m[3] ? Number(m[3]) : 0 };
}

/** > 0 when `a` ranks above `b` (v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > non-kube versions, those A→Z). */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parseKubeVersion(a);
  const pb = parseKubeVersion(b);
  if (!pa && !pb) return a < b ? 1 : -1;
  if (!pa) return -1;
  if (!pb) return 1;
  if (pa.stage !== pb.stage) return pa.stage - pb.stage;
  if (pa.major !== pb.major) return pa.major - pb.major;
  return pa.minor - pb.minor;
}

interface Priority {
  group: number;
  version: number;
}

/** GroupPriorityMinimum / VersionPriority of the built-in APIServices (kube-apiserver v1.32). */
const groupPriorities: Record<string, number> = {
  '': 18000,
  // the aggregator always lists its own group first
  'apiregistration.k8s.io': 18100,
  apps: 17800,
  'events.k8s.io': 17750,
  'authentication.k8s.io': 17700,
  'authorization.k8s.io': 17600,
  autoscaling: 17500,
  batch: 17400,
  'certificates.k8s.io': 17300,
  'networking.k8s.io': 17200,
  policy: 17100,
  'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800,
  'admissionregistration.k8s.io': 16700,
  'apiextensions.k8s.io': 16700,
  'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500,
  'node.k8s.io': 16300,
  'discovery.k8s.io': 16200,
  'flowcontrol.apiserver.k8s.io': 16100,
  'internal.apiserver.k8s.io': 16000,
  'resource.k8s.io': 15900,
  'storagemigration.k8s.io': 15800,
};

const versionPriorityOverrides: Record<string, number> = {
  'autoscaling/v2': 30,
  'flowcontrol.apiserver.k8s.io/v1': 21,
};

/** What kube's CRD registration gives every CRD group-version. */
const crdPriority: Priority = { group: 1000, version: 100 };

export function priorityOf(group: string, version: string): Priority {
  const groupPriority = groupPriorities[group];
  if (groupPriority === undefined) return crdPriority;
  const override = versionPriorityOverrides[`${group}/${version}`];
  if (override !== undefined) return { group: groupPriority, version: override };
  const parsed = parseKubeVersion(version);
  // built-in tables give GA 15, beta 9-12, alpha 1; kube-aware order breaks ties the same way
  const byStage = parsed ? [1, 9, 15][parsed.stage] : 0;
  return { group: groupPriority, version: byStage };
}

export interface GroupVersions {
  group: string;
  /** ordered, preferred first */
  versions: string[];
}

function sortVersions(group: string, versions: Iterable<string>): string[] {
  return [...versions].sort((a, b) => {
    const pa = priorityOf(group, a).version;
    const pb = priorityOf(group, b).version;
    if (pa !== pb) return pb - pa;
    return compareKubeAwareVersions(b, a);
  });
}

function versionsByGroup(defs: readonly ResourceDefinition[]): Map<string, Set<string>> {
  const byGroup = new Map<string, Set<string>>();
  for (const def of defs) {
    let set = byGroup.get(def.group);
    if (!set) byGroup.set(def.group, (set = new Set()));
    for (const v of def.versions) set.add(v);
  }
  return byGroup;
}

/**
 * Named groups in /apis order. The legacy list sorts APIServices (named `<version>.<group>`) by priority then
 * name and keeps each group's first position; aggregated discovery breaks priority ties by group name.
 */
export function orderedGroups(
  defs: readonly ResourceDefinition[],
  tieBreak: 'apiservice' | 'group',
): GroupVersions[] {
  const groups: GroupVersions[] = [];
  for (const [group, versions] of versionsByGroup(defs)) {
    if (group === '') continue;
    groups.push({ group, versions: sortVersions(group, versions) });
  }
  const tieKey = (g: GroupVersions): string =>
    tieBreak === 'group' ? g.group : g.versions.map((v) => `${v}.${g.group}`).sort()[0];
  return groups.sort((a, b) => {
    const pa = priorityOf(a.group, a.versions[0]).group;
    const pb = priorityOf(b.group, b.versions[0]).group;
    if (pa !== pb) return pb - pa;
    const ka = tieKey(a);
    const kb = tieKey(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

/** Versions of one group (the core group is ''), preferred first; empty when the group is not served. */
export function groupVersions(defs: readonly ResourceDefinition[], group: string): string[] {
  const versions = versionsByGroup(defs).get(group);
  return versions ? sortVersions(group, versions) : [];
}

/** One group-version as an APIService publishes it (kube gives every local group-version one too). */
export interface PrioritizedGroupVersion {
  group: string;
  version: string;
  groupPriority: number;
  versionPriority: number;
  /** the APIService's name, `<version>.<group>` */
  name: string;
}

export interface PrioritizedGroup<T extends PrioritizedGroupVersion> {
  group: string;
  /** preferred first */
  versions: T[];
}

/** The local group-versions (the core group left out) as APIServices with today's priorities. */
export function localGroupVersions(defs: readonly ResourceDefinition[]): PrioritizedGroupVersion[] {
  const out: PrioritizedGroupVersion[] = [];
  for (const [group, versions] of versionsByGroup(defs)) {
    if (group === '') continue;
    for (const version of versions) {
      const p = priorityOf(group, version);
      out.push({
        group,
        version,
        groupPriority: p.group,
        versionPriority: p.version,
        name: `${version}.${group}`,
      });
    }
  }
  return out;
}

function byVersionPriority(a: PrioritizedGroupVersion, b: PrioritizedGroupVersion): number {
  if (a.versionPriority !== b.versionPriority) return b.versionPriority - a.versionPriority;
  return compareKubeAwareVersions(b.version, a.version);
}

function collect<T extends PrioritizedGroupVersion>(sorted: T[]): PrioritizedGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const gv of sorted) {
    const list = groups.get(gv.group);
    if (list) list.push(gv);
    else groups.set(gv.group, [gv]);
  }
  return [...groups].map(([group, versions]) => ({ group, versions: versions.sort(byVersionPriority) }));
}

/**
 * kube-aggregator's /apis order: APIServices by group priority (highest first) then name, each group where its
 * first APIService falls; a group's versions by version priority, then kube-aware order.
 */
export function orderByApiService<T extends PrioritizedGroupVersion>(
  items: readonly T[],
): PrioritizedGroup<T>[] {
  const sorted = [...items].sort((a, b) =>
    a.groupPriority !== b.groupPriority
      ? b.groupPriority - a.groupPriority
      : a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0,
  );
  return collect(sorted);
}

/** Aggregated discovery's order: groups by their highest group priority, ties by group name. */
export function orderByGroupPriority<T extends PrioritizedGroupVersion>(
  items: readonly T[],
): PrioritizedGroup<T>[] {
  const top = new Map<string, number>();
  for (const gv of items) top.set(gv.group, Math.max(top.get(gv.group) ?? -Infinity, gv.groupPriority));
  const groups = collect([...items]);
  return groups.sort((a, b) => {
    const pa = top.get(a.group)!;
    const pb = top.get(b.group)!;
    if (pa !== pb) return pb - pa;
    return a.group < b.group ? -1 : a.group > b.group ? 1 : 0;
  });
}
