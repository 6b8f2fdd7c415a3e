/**
 * Ownership bookkeeping on every write: which fields a write path resets (so nobody owns them through it), and
 * the managedFields a non-apply write leaves behind (modules/apply does the set arithmetic).
 */
import type { KubeObject } from '../api/index.js';
import { FieldSet, makePath, recordUpdate } from '../apply/index.js';
import { groupVersion, type ResourceDefinition } from './definition.js';

/** The main resource resets `status` when the kind has a status subresource; `/status` resets everything else. */
export function ignoredFields(
  def: ResourceDefinition,
  subresource: string | undefined,
): FieldSet | undefined {
  if (!def.subresources?.includes('status')) return undefined;
  if (!subresource) return FieldSet.of(makePath('status'));
  if (subresource === 'status') {
    const others = Object.keys(def.schema.properties ?? {}).filter(
      (p) => !['status', 'metadata', 'apiVersion', 'kind'].includes(p),
    );
    return FieldSet.of(...others.map((p) => makePath(p)));
  }
  return undefined;
}

/** Sets obj.metadata.managedFields for a create (old undefined) or an update by `manager`. */
export function recordManagedFields(
  def: ResourceDefinition,
  old: KubeObject | undefined,
  obj: KubeObject,
  manager: string,
  subresource: string | undefined,
): void {
  const entries = recordUpdate(old, obj, manager, def.schema, {
    apiVersion: groupVersion(def.group, def.storageVersion),
    subresource,
    ignoredFields: ignoredFields(def, subresource),
  });
  if (entries.length > 0) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}
