/**
 * The resources of one group-version as kube's discovery lists them: every definition serving that version,
 * then one entry per subresource (`pods/status`), sorted by name the way kube registers its paths.
 */
import { createHash } from 'node:crypto';
import { versionView, type ResourceDefinition, type Verb } from '../registry/index.js';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** How a subresource is served: its verbs and the kind it reads/writes (undefined group/version: parent's). */
export interface SubresourceInfo {
  verbs: string[];
  kind: (parentKind: string) => string;
  group?: string;
  version?: string;
  /** exec/attach/portforward/proxy/log stream raw data instead of objects */
  connect?: boolean;
}

const sameKind = (k: string): string => k;
const readWrite = ['get', 'patch', 'update'];

/** The fixed vocabulary of kube subresources; unknown names are served like `status`. */
const subresourceTable: Record<string, SubresourceInfo> = {
  status: { verbs: readWrite, kind: sameKind },
  scale: { verbs: readWrite, kind: () => 'Scale', group: 'autoscaling', version: 'v1' },
  finalize: { verbs: ['update'], kind: sameKind },
  approval: { verbs: readWrite, kind: sameKind },
  ephemeralcontainers: { verbs: readWrite, kind: sameKind },
  resize: { verbs: readWrite, kind: sameKind },
  binding: { verbs: ['create'], kind: () => 'Binding', group: '', version: 'v1' },
  eviction: { verbs: ['create'], kind: () => 'Eviction', group: 'policy', version: 'v1' },
  token: { verbs: ['create'], kind: () => 'TokenRequest', group: 'authentication.k8s.io', version: 'v1' },
  log: { verbs: ['get'], kind: sameKind, connect: true },
  exec: { verbs: ['create', 'get'], kind: (k) => `${k}ExecOptions`, connect: true },
  attach: { verbs: ['create', 'get'], kind: (k) => `${k}AttachOptions`, connect: true },
  portforward: { verbs: ['create', 'get'], kind: (k) => `${k}PortForwardOptions`, connect: true },
  proxy: {
    verbs: ['create', 'delete', 'get', 'patch', 'update'],
    kind: (k) => `${k}ProxyOptions`,
    connect: true,
  },
};

export function subresourceInfo(name: string): SubresourceInfo {
  return subresourceTable[name] ?? subresourceTable.status;
}

/** The kind a subresource of `def` (served at `version`) reads and writes. */
export function subresourceKind(def: ResourceDefinition, version: string, sub: string): GroupVersionKind {
  const info = subresourceInfo(sub);
  return {
    group: info.group ?? def.group,
    version: info.version ?? version,
    kind: info.kind(def.kind),
  };
}

/** kube: base64 of the first 8 bytes of sha256("<group>/<version>/<kind>") of the storage version. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256')
    .update(`${group}/${version}/${kind}`)
    .digest()
    .subarray(0, 8)
    .toString('base64');
}

/** kube lists verbs sorted. */
export function sortedVerbs(verbs: readonly (Verb | string)[]): string[] {
  return [...new Set(verbs)].sort();
}

/** One APIResource, field order as kube serializes it. */
export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export function definitionsServing(
  defs: readonly ResourceDefinition[],
  group: string,
  version: string,
): ResourceDefinition[] {
  return defs.filter((d) => d.group === group && d.versions.includes(version));
}

export function apiResources(
  defs: readonly ResourceDefinition[],
  group: string,
  version: string,
): APIResource[] {
  const out: APIResource[] = [];
  for (const served of definitionsServing(defs, group, version)) {
    const def = versionView(served, version);
    const namespaced = def.scope === 'Namespaced';
    const main: APIResource = {
      name: def.resource,
      singularName: def.singular,
      namespaced,
      kind: def.kind,
      verbs: sortedVerbs(def.verbs),
    };
    if (def.shortNames?.length) main.shortNames = [...def.shortNames];
    if (def.categories?.length) main.categories = [...def.categories];
    // kube gives the hash only to kinds it stores (a storage migration's key)
    if (def.storage !== 'virtual') {
      // a kind stored with another has that kind's hash: one storage, one version it is written in
      const stored = def.storedWith?.definition ?? def;
      main.storageVersionHash = storageVersionHash(stored.group, stored.storageVersion, stored.kind);
    }
    out.push(main);
    for (const sub of def.subresources ?? []) {
      const info = subresourceInfo(sub);
      const gvk = subresourceKind(def, version, sub);
      // group/version only appear when they differ from the list's own group-version
      const foreign = gvk.group !== group || gvk.version !== version;
      out.push({
        name: `${def.resource}/${sub}`,
        singularName: '',
        namespaced,
        ...(foreign ? { group: gvk.group, version: gvk.version } : {}),
        kind: gvk.kind,
        verbs: sortedVerbs(info.verbs),
      });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
