/** The served kinds, looked up by group/version/resource and by kind. */
import type { ResourceDefinition } from './definition.js';

export function storageKey(def: ResourceDefinition): string {
  return `${def.group}/${def.resource}`;
}

export class Registry {
  private readonly byPath = new Map<string, ResourceDefinition>();

  constructor(
    /** the served kinds, each with its enabled versions (discovery, OpenAPI, requests) */
    readonly definitions: ResourceDefinition[],
    /** every kind stored here, served or not: controllers keep working on disabled ones */
    readonly stored: readonly ResourceDefinition[] = definitions,
  ) {
    for (const def of definitions) {
      for (const version of def.versions) this.byPath.set(`${def.group}/${version}/${def.resource}`, def);
    }
  }

  find(group: string, version: string, resource: string): ResourceDefinition | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  hasGroupVersion(group: string, version: string): boolean {
    return this.definitions.some((d) => d.group === group && d.versions.includes(version));
  }

  /** A stored kind by group and resource, whether served or not. */
  storedKind(group: string, resource: string): ResourceDefinition | undefined {
    return this.stored.find((d) => d.group === group && d.resource === resource);
  }

  /** Every stored namespaced kind (what a namespace's deletion must empty), served or not. */
  namespaced(): ResourceDefinition[] {
    return this.stored.filter((d) => d.scope === 'Namespaced');
  }
}
