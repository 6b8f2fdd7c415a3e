/**
 * The kind-level half of the corrupt-row verdict (storage's corrupt.ts does the structural half): a stored
 * body must be an object of its key's kind, in one of that kind's versions, and for a built-in kind its
 * fields must decode as kube's typed decoder reads them (a wrong type is corrupt: kube could not decode it
 * into its Go struct). Custom resources decode untyped in kube, so only their apiVersion and kind count.
 */
import { ApiError, groupVersion, type KubeObject } from '../api/index.js';
import { decodeObject } from '../schema/index.js';
import type { BodyCheck, ObjectKey } from '../storage/index.js';
import type { ResourceDefinition } from './definition.js';
import type { Registry } from './registry.js';

function gvkText(apiVersion: string, kind: string): string {
  return `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${kind}`;
}

/** Why `object` is not an object of `def`'s kind, or undefined. */
export function kindDefect(def: ResourceDefinition, object: KubeObject): string | undefined {
  const apiVersion = object.apiVersion ?? '';
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const versions = new Set([...def.versions, def.storageVersion]);
  if (object.kind !== def.kind || group !== def.group || !versions.has(version)) {
    const expected = gvkText(groupVersion(def.group, def.storageVersion), def.kind);
    return `the stored object is ${gvkText(apiVersion, object.kind ?? '')}, expected ${expected}`;
  }
  if (def.declaredServing) return undefined;
  try {
    decodeObject(structuredClone(object), def.schema, { kind: def.kind });
    return undefined;
  } catch (e) {
    if (e instanceof ApiError) return e.message;
    throw e;
  }
}

/** The check storage runs on every body it reads: the kind of the key's resource, as the registry has it now. */
export function storedBodyCheck(registry: Registry): BodyCheck {
  return (key: ObjectKey, object: KubeObject) => {
    const slash = key.resource.lastIndexOf('/');
    const def = registry.storedKind(key.resource.slice(0, slash), key.resource.slice(slash + 1));
    // a kind not registered (yet): a CRD's objects before its kind is served; structure alone decides
    return def ? kindDefect(def, object) : undefined;
  };
}
