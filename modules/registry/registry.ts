/** The served kinds, looked up by group/version/resource and by kind. */
import type { ResourceDefinition } from './definition.js';

export function storageKey(def: ResourceDefinition): string {
  return `${def.group}/${def.resource}`;
}

export class Registry {
  private readonly byPath = new Map<string, ResourceDefinition>();

  constructor(readonly definitions: ResourceDefinition[]) {
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

  namespaced(): ResourceDefinition[] {
    return this.definitions.filter((d) => d.scope === 'Namespaced');
  }
}
