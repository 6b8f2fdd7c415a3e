/** The API groups a sidecar serves itself: those of the Registry's definitions, one set per definitions array. */
import type { Registry, ResourceDefinition } from '../registry/index.js';

const sets = new WeakMap<readonly ResourceDefinition[], ReadonlySet<string>>();

export function localGroups(registry: Registry): ReadonlySet<string> {
  const defs = registry.definitions;
  let groups = sets.get(defs);
  if (!groups) {
    groups = new Set(defs.map((d) => d.group));
    sets.set(defs, groups);
  }
  return groups;
}
