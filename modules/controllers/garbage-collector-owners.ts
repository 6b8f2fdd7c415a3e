/**
 * Where an ownerReference points, read from this replica's watch cache: its apiVersion and kind name a kind
 * of the registry (built-in or a CRD, whatever it is), the owner sits under that kind by name, in the
 * dependent's namespace when the kind is namespaced, and it is the owner only if its uid is the reference's.
 * A reference to an owner in another namespace therefore never resolves to it: kube looks only in the
 * dependent's own namespace.
 */
import type { KubeObject, OwnerReference } from '../api/index.js';
import { storageKey, type Registry, type ResourceDefinition } from '../registry/index.js';
import type { WatchCache } from '../watch/index.js';
import { isDeletingDependents, type OwnerState } from './garbage-collector-decisions.js';

export class OwnerResolver {
  /** `<group>/<version>/<Kind>` → the kind; made again after any change of the registry */
  private byKind?: Map<string, ResourceDefinition>;

  constructor(
    private readonly registry: Registry,
    private readonly cache: WatchCache,
  ) {}

  /** The registry changed: kinds may have come, gone or changed scope. */
  invalidate(): void {
    this.byKind = undefined;
  }

  /** The kind an ownerReference names, as kube's REST mapper finds it: a version the kind has, or none. */
  kindOf(ref: OwnerReference): ResourceDefinition | undefined {
    if (!this.byKind) {
      this.byKind = new Map();
      for (const def of this.registry.stored)
        for (const version of def.versions) {
          const key = `${def.group}/${version}/${def.kind}`;
          if (!this.byKind.has(key)) this.byKind.set(key, def);
        }
    }
    const [group, version] = ref.apiVersion.includes('/')
      ? ref.apiVersion.split('/', 2)
      : ['', ref.apiVersion];
    return this.byKind.get(`${group}/${version}/${ref.kind}`);
  }

  /** What became of the owner `ref` names, seen from `dependent`. */
  state(dependent: KubeObject, ref: OwnerReference): OwnerState {
    const def = this.kindOf(ref);
    if (!def) return 'unresolvable';
    const namespace = dependent.metadata.namespace ?? '';
    const namespaced = def.scope === 'Namespaced';
    // a cluster-scoped object cannot be owned by a namespaced one; kube leaves such objects alone
    if (namespaced && !namespace) return 'unresolvable';
    const owner = this.cache.get(storageKey(def), namespaced ? namespace : '', ref.name);
    if (!owner || owner.metadata.uid !== ref.uid) return 'absent';
    return isDeletingDependents(owner) ? 'waiting' : 'live';
  }
}
