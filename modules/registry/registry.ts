/**
 * The kinds this server has, changed at run time: built-in kinds register at start, CRDs when they appear.
 * Readers (discovery, OpenAPI, the pipeline) look kinds up here; followers (the watch cache) subscribe to the
 * changes. Version enablement (--runtime-config) applies to every definition as it is registered.
 */
import type { ResourceDefinition } from './definition.js';
import type { Enablement } from './enablement.js';
import { versionView } from './version-view.js';

/** Where a kind's objects are stored: its own `<group>/<resource>`, or that of the kind it is stored with. */
export function storageKey(def: ResourceDefinition): string {
  const owner = def.storedWith?.definition ?? def;
  return `${owner.group}/${owner.resource}`;
}

/** A kind's own name in the registry, whatever storage it uses. */
function kindKey(def: ResourceDefinition): string {
  return `${def.group}/${def.resource}`;
}

export type RegistryEvent = {
  type: 'added' | 'modified' | 'removed';
  /** the definition as registered (all its versions), or the one removed */
  definition: ResourceDefinition;
};

export type RegistryListener = (event: RegistryEvent) => void;

export class Registry {
  /** by group/resource: every kind as registered, served or not */
  private readonly all = new Map<string, ResourceDefinition>();
  /** by group/resource: kinds with at least one enabled version, holding only those */
  private readonly served = new Map<string, ResourceDefinition>();
  /** `<group>/<version>/<resource>` → that version's view: find() is on every request's path */
  private byPath = new Map<string, ResourceDefinition>();
  private groupVersions = new Set<string>();
  // new arrays on each change: discovery and OpenAPI cache their documents per array instance
  private servedList: ResourceDefinition[] = [];
  private storedList: readonly ResourceDefinition[] = [];
  private readonly listeners = new Set<RegistryListener>();

  constructor(private readonly enablement?: Enablement) {}

  /** the served kinds, each with its enabled versions (discovery, OpenAPI, requests) */
  get definitions(): ResourceDefinition[] {
    return this.servedList;
  }

  /**
   * every kind stored here, served or not: controllers keep working on disabled ones. Each storage key once:
   * virtual kinds store nothing, and a kind stored with another (`storedWith`) is that other's objects.
   */
  get stored(): readonly ResourceDefinition[] {
    return this.storedList;
  }

  /** Adds a kind, or replaces the one with the same group and resource. */
  register(def: ResourceDefinition): void {
    const key = kindKey(def);
    const type = this.all.has(key) ? 'modified' : 'added';
    this.all.set(key, def);
    const served = this.enablement && !def.declaredServing ? this.enablement.served([def])[0] : def;
    if (served) this.served.set(key, served);
    else this.served.delete(key);
    this.rebuild();
    this.emit({ type, definition: def });
  }

  /** Removes a kind; unknown ones are ignored. */
  unregister(group: string, resource: string): void {
    const key = `${group}/${resource}`;
    const def = this.all.get(key);
    if (!def) return;
    this.all.delete(key);
    this.served.delete(key);
    this.rebuild();
    this.emit({ type: 'removed', definition: def });
  }

  /** Calls `listener` on every later change; returns the unsubscribe. */
  subscribe(listener: RegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The served kind at a version, as that version sees it. */
  find(group: string, version: string, resource: string): ResourceDefinition | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  hasGroupVersion(group: string, version: string): boolean {
    return this.groupVersions.has(`${group}/${version}`);
  }

  /** A stored kind by group and resource, whether served or not. */
  storedKind(group: string, resource: string): ResourceDefinition | undefined {
    const def = this.all.get(`${group}/${resource}`);
    return def?.storage === 'virtual' ? undefined : def;
  }

  /** Every stored namespaced kind (what a namespace's deletion must empty), served or not. */
  namespaced(): ResourceDefinition[] {
    return this.storedList.filter((d) => d.scope === 'Namespaced');
  }

  private rebuild(): void {
    this.servedList = [...this.served.values()];
    this.storedList = [...this.all.values()].filter((d) => d.storage !== 'virtual' && !d.storedWith);
    this.byPath = new Map();
    this.groupVersions = new Set();
    for (const def of this.servedList) {
      for (const version of def.versions) {
        this.byPath.set(`${def.group}/${version}/${def.resource}`, versionView(def, version));
        this.groupVersions.add(`${def.group}/${version}`);
      }
    }
  }

  /** Every listener hears every change, even when one of them throws (the first error is rethrown). */
  private emit(event: RegistryEvent): void {
    const failures: unknown[] = [];
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (e) {
        failures.push(e);
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}
