/**
 * The columns of a kind's view: the fixed ones every view has, then one jsonb column per top-level field of
 * the kind's storage version schema (`spec`, `status`, `data`, ...), named in snake_case as SQL names are.
 */
import { versionView, type ResourceDefinition } from '../registry/index.js';

/** every view's own columns, in their order (`object` last of them: field columns follow) */
export const fixedColumns = [
  'namespace',
  'name',
  'uid',
  'resource_version',
  'generation',
  'created_at',
  'deleted_at',
  'labels',
  'annotations',
  'owner_references',
  'object',
] as const;

/** the envelope: in the fixed columns already */
const envelope = new Set(['apiVersion', 'kind', 'metadata']);

export interface FieldColumn {
  /** the top-level field of the object */
  field: string;
  /** its column */
  column: string;
}

/** Go-style names in snake_case: `binaryData` binary_data, `podCIDRs` pod_cidrs, `httpGet` http_get */
export function snakeCase(field: string): string {
  const words = field.match(/[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g);
  return words ? words.join('_').toLowerCase() : field.toLowerCase();
}

/**
 * The top-level fields of the objects as stored (the storage version's schema: a CRD's objects are stored in
 * that version), sorted, each with its column. A column name taken by a fixed column or an earlier field gets
 * `_field` appended (a CRD may well have a top-level `name` or `labels`).
 */
export function fieldColumns(def: ResourceDefinition): FieldColumn[] {
  const schema = versionView(def, def.storageVersion).schema;
  const fields = Object.keys(schema.properties ?? {})
    .filter((f) => !envelope.has(f))
    .sort();
  const taken = new Set<string>(fixedColumns);
  return fields.map((field) => {
    let column = snakeCase(field);
    while (taken.has(column)) column = `${column}_field`;
    taken.add(column);
    return { field, column };
  });
}
