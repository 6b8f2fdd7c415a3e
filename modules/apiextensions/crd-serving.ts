/**
 * Every replica serves the kinds of the Established CRDs it hears of through its watch cache: a CRD written
 * anywhere is registered here within one change-feed turn, and a CRD changed or removed replaces or removes
 * its kind (discovery, OpenAPI, requests and open watches follow the registry).
 */
import type { KubeObject } from '../api/index.js';
import type { Registry, ResourceDefinition } from '../registry/index.js';
import { Informer, type WatchCache } from '../watch/index.js';
import { crdGroup } from './crd/index.js';
import { asCrd, servedKindOf } from './served-kind.js';

export class CrdServing {
  private readonly informer: Informer;
  /** by CRD name: the group and resource it serves now, and what they were made from */
  private readonly serving = new Map<string, { group: string; resource: string; from: string }>();

  constructor(
    cache: WatchCache,
    private readonly registry: Registry,
    private readonly log: (message: string) => void,
  ) {
    this.informer = new Informer(cache, `${crdGroup}/customresourcedefinitions`, (e) =>
      this.apply(e.object, e.type === 'DELETED'),
    );
  }

  /** Resolves once every CRD stored when it starts is served. */
  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): void {
    this.informer.stop();
  }

  private apply(object: KubeObject, deleted: boolean): void {
    const name = object.metadata.name!;
    const from = deleted ? '' : servedFrom(object);
    // most changes of a CRD are its status' own (conditions, storedVersions): the kind stays as it is
    if (from && this.serving.get(name)?.from === from) return;
    let def: ResourceDefinition | undefined;
    if (!deleted) {
      const crd = asCrd(object);
      try {
        def = crd && servedKindOf(crd);
      } catch (e) {
        // a stored CRD this server cannot serve (written by an older or newer one) must not stop the feed
        this.log(`customresourcedefinition ${name} is not served: ${(e as Error).message}`);
      }
    }
    const before = this.serving.get(name);
    if (before && (!def || def.group !== before.group || def.resource !== before.resource)) {
      this.registry.unregister(before.group, before.resource);
      this.serving.delete(name);
    }
    if (def && !before && this.registry.storedKind(def.group, def.resource)) {
      // names are accepted only when free, so this is a built-in kind: it is never replaced
      this.log(`customresourcedefinition ${name} is not served: ${def.resource}.${def.group} exists`);
      return;
    }
    if (def) {
      this.registry.register(def);
      this.serving.set(name, { group: def.group, resource: def.resource, from });
    }
  }
}

/** What the served kind is made from: the spec, the accepted names, and whether it is Established or Terminating. */
function servedFrom(crd: KubeObject): string {
  const status = (crd.status ?? {}) as {
    acceptedNames?: unknown;
    conditions?: { type: string; status: string }[];
  };
  const conditions = (status.conditions ?? [])
    .filter((c) => c.type === 'Established' || c.type === 'Terminating')
    .map((c) => `${c.type}=${c.status}`);
  return JSON.stringify([crd.spec, status.acceptedNames, conditions.sort()]);
}
