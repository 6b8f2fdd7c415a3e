/** labelSelector + fieldSelector of a list, watch or deletecollection, compiled once per request. */
import type { KubeObject } from '../api/index.js';
import { parseFieldSelector, validateFieldSelector } from '../api/index.js';
import { parseLabelSelector } from '../api/index.js';
import type { ResourceDefinition } from './definition.js';

export interface Selection {
  matches(obj: KubeObject): boolean;
  /** set when the field selector pins metadata.name (lets a watch or list narrow to one key) */
  name?: string;
  /** true when any selector was given (kube then omits remainingItemCount) */
  filtered: boolean;
}

export const everything: Selection = { matches: () => true, filtered: false };

function selectableFieldNames(def: ResourceDefinition): Set<string> {
  const extra = def.strategy.selectableFields?.({ metadata: {} }) ?? {};
  return new Set(['metadata.name', 'metadata.namespace', ...Object.keys(extra)]);
}

/** A stored object's selectable fields; a kind stored with another names them as it shows the object. */
export function fieldsOf(def: ResourceDefinition, obj: KubeObject): Record<string, string> {
  const own = def.strategy.selectableFields && def.storedWith ? def.storedWith.fromStored(obj) : obj;
  return {
    'metadata.name': obj.metadata.name ?? '',
    'metadata.namespace': obj.metadata.namespace ?? '',
    ...def.strategy.selectableFields?.(own),
  };
}

export function parseSelection(
  def: ResourceDefinition,
  labelSelector?: string,
  fieldSelector?: string,
): Selection {
  const labels = labelSelector ? parseLabelSelector(labelSelector) : undefined;
  const fields = fieldSelector ? parseFieldSelector(fieldSelector) : undefined;
  if (fields) validateFieldSelector(fields, selectableFieldNames(def));
  if ((!labels || labels.empty) && (!fields || fields.empty)) return everything;
  return {
    filtered: true,
    name: fields?.exactName(),
    matches: (obj) =>
      (!labels || labels.matches(obj.metadata.labels ?? {})) &&
      (!fields || fields.matches(fieldsOf(def, obj))),
  };
}
