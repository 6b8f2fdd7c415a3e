/**
 * The SELECT of each view. The views are plain views, not security_barrier ones: a barrier keeps PostgreSQL from
 * pushing a reader's `labels @> '{...}'` (jsonb containment is not leakproof) down to the labels index, so every
 * label query read every body of the kind (bench/sql-views.ts: 142 ms against 0.9 ms at 100,000 ConfigMaps).
 * A barrier guarantees that a reader's own function in a WHERE clause never sees rows the view filters out;
 * without one, PostgreSQL happens to run a view's cheap key filter first, but promises nothing. So every column
 * of every view reads the body through the same masking expression: whatever rows such a function is shown, it
 * sees nothing of a Secret's values, and all else is what some view shows anyway.
 */
import { type ResourceDefinition } from '../registry/index.js';
import type { FieldColumn } from './columns.js';
import { secretAnnotations, secretFields, secretStorageKey } from './secret-data.js';
import { ident, literal } from './sql-text.js';

export interface ViewSqlOptions {
  /** --sql-expose-secret-data */
  exposeSecretData: boolean;
  /** the schema holding `objects` and `changes` */
  base: string;
}

/** `c.body` as the views may show it: a Secret's values and their copies removed unless exposed */
export function shownBody(exposeSecretData: boolean): string {
  if (exposeSecretData) return 'c.body';
  const fields = secretFields.map((f) => ` - ${literal(f)}`).join('');
  const annotations = secretAnnotations
    .map((a) => ` #- ${literal(`{metadata,annotations,${JSON.stringify(a)}}`)}`)
    .join('');
  return `(CASE WHEN c.resource = ${literal(secretStorageKey)} THEN (c.body${fields})${annotations} ELSE c.body END)`;
}

/** the object as the API serves it: the rv column is the resourceVersion */
function served(body: string, rv: string): string {
  return `jsonb_set(${body}, '{metadata,resourceVersion}', to_jsonb(${rv}::text))`;
}

/**
 * A kind's view: its current objects, one row each. The join names every key column so that a lookup by
 * namespace and name is one probe of `objects`' primary key and of `changes`' (rv), and a label query starts
 * from the labels index on `changes`, meeting `objects` by its primary key.
 */
export function kindViewSql(
  def: ResourceDefinition,
  storage: string,
  fields: FieldColumn[],
  options: ViewSqlOptions,
): string {
  const body = shownBody(options.exposeSecretData);
  const base = ident(options.base);
  const columns = [
    def.scope === 'Namespaced' ? 'o.namespace' : 'NULL::text AS namespace',
    'o.name',
    'o.uid',
    'o.rv AS resource_version',
    `(c.body #>> '{metadata,generation}')::bigint AS generation`,
    `(c.body #>> '{metadata,creationTimestamp}')::timestamptz AS created_at`,
    `(c.body #>> '{metadata,deletionTimestamp}')::timestamptz AS deleted_at`,
    // the same expression as the labels index (migrations/0004)
    `c.body -> 'metadata' -> 'labels' AS labels`,
    `${body} -> 'metadata' -> 'annotations' AS annotations`,
    `c.body -> 'metadata' -> 'ownerReferences' AS owner_references`,
    `${served(body, 'o.rv')} AS object`,
    ...fields.map((f) => `${body} -> ${literal(f.field)} AS ${ident(f.column)}`),
  ];
  return [
    `SELECT ${columns.join(',\n  ')}`,
    `FROM ${base}.objects o`,
    `JOIN ${base}.changes c ON c.rv = o.rv AND c.resource = o.resource AND c.namespace = o.namespace AND c.name = o.name`,
    `WHERE o.resource = ${literal(storage)}`,
  ].join('\n');
}

/** `k8s.changes`: every change of the history window, oldest first when ordered by rv */
export function changesViewSql(retentionMs: number, options: ViewSqlOptions): string {
  const body = shownBody(options.exposeSecretData);
  const columns = [
    'c.rv',
    'c.at',
    `CASE c.type WHEN 2 THEN 'MODIFIED' WHEN 3 THEN 'DELETED' ELSE 'ADDED' END AS type`,
    `c.body ->> 'kind' AS kind`,
    `split_part(c.resource, '/', 1) AS api_group`,
    `split_part(c.resource, '/', 2) AS resource`,
    `NULLIF(c.namespace, '') AS namespace`,
    'c.name',
    `${served(body, 'c.rv')} AS object`,
  ];
  return [
    `SELECT ${columns.join(',\n  ')}`,
    `FROM ${ident(options.base)}.changes c`,
    // rows older than the window are current bodies (or history not yet pruned), not history
    `WHERE c.at > now() - make_interval(secs => ${retentionMs / 1000})`,
  ].join('\n');
}
