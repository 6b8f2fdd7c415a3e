/**
 * Brings schema `k8s` in step with the wanted views. Each view's comment carries a hash of what made it, so a
 * start or a registry change that changes nothing costs one catalog query and no DDL (DDL takes an exclusive
 * lock on the view, which waits for its readers). Replicas may sync at once: changes are made under a
 * transaction-scoped advisory lock, after reading the catalog again under it. Only views this module made
 * (their comment says so) are ever replaced or dropped; others in the schema (the audit view) are left alone.
 */
import { createHash } from 'node:crypto';
import type postgres from 'postgres';
import { ident, literal } from './sql-text.js';
import type { ViewSpec } from './view-specs.js';

export const viewSchema = 'k8s';
export const readerRole = 'pgkube_reader';

/** Any fixed number, apart from the migrations' lock: replicas take turns changing the views. */
const VIEWS_LOCK = 7_361_021;
const MARKER = 'pgkube:';
/** a view that readers hold longer than this is changed at the next attempt instead */
const LOCK_TIMEOUT = '5s';

export interface SyncResult {
  created: string[];
  replaced: string[];
  dropped: string[];
  /** views left as they are, with why (a user's view depends on one that must change, a name taken) */
  skipped: string[];
}

interface Wanted extends ViewSpec {
  hash: string;
}

function hashOf(spec: ViewSpec, granted: boolean): string {
  return createHash('sha256')
    .update(`${spec.select}\n${granted ? readerRole : ''}`)
    .digest('hex')
    .slice(0, 32);
}

/** the views of schema k8s, each with the hash of its making when this module made it (null: not ours) */
async function existing(sql: postgres.Sql | postgres.TransactionSql): Promise<Map<string, string | null>> {
  const rows = await sql<{ name: string; comment: string | null }[]>`
    SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${viewSchema} AND c.relkind = 'v'`;
  return new Map(
    rows.map((r) => [
      r.name,
      r.comment?.startsWith(MARKER) ? r.comment.slice(MARKER.length, MARKER.length + 32) : null,
    ]),
  );
}

async function readerExists(sql: postgres.Sql | postgres.TransactionSql): Promise<boolean> {
  const rows = await sql`SELECT 1 FROM pg_roles WHERE rolname = ${readerRole}`;
  return rows.length > 0;
}

interface Plan {
  write: Wanted[];
  drop: string[];
  skipped: string[];
}

function plan(specs: ViewSpec[], found: Map<string, string | null>, granted: boolean): Plan {
  const wanted = new Set(specs.map((s) => s.name));
  const out: Plan = { write: [], drop: [], skipped: [] };
  for (const spec of specs) {
    const hash = hashOf(spec, granted);
    const have = found.get(spec.name);
    if (have === null) out.skipped.push(`${spec.name}: a view of that name was not made by pgkube`);
    else if (have !== hash) out.write.push({ ...spec, hash });
  }
  for (const [name, hash] of found) if (hash !== null && !wanted.has(name)) out.drop.push(name);
  return out;
}

/** Makes schema k8s hold exactly `specs` (and whatever views pgkube did not make). */
export async function syncViews(sql: postgres.Sql, specs: ViewSpec[]): Promise<SyncResult> {
  const result: SyncResult = { created: [], replaced: [], dropped: [], skipped: [] };
  // the common case, every start and most registry changes: nothing to do, no lock taken
  const first = plan(specs, await existing(sql), await readerExists(sql));
  if (first.write.length === 0 && first.drop.length === 0) {
    result.skipped = first.skipped;
    return result;
  }
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${VIEWS_LOCK})`;
    await tx.unsafe(`SET LOCAL lock_timeout = ${literal(LOCK_TIMEOUT)}`);
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS ${ident(viewSchema)}`);
    const found = await existing(tx);
    const granted = await readerExists(tx);
    const todo = plan(specs, found, granted);
    result.skipped = todo.skipped;
    if (granted) await tx.unsafe(`GRANT USAGE ON SCHEMA ${ident(viewSchema)} TO ${ident(readerRole)}`);
    for (const view of todo.write) {
      const name = `${ident(viewSchema)}.${ident(view.name)}`;
      const ok = await writeView(tx, name, view, found.has(view.name), result);
      if (!ok) continue;
      await tx.unsafe(`COMMENT ON VIEW ${name} IS ${literal(`${MARKER}${view.hash} ${view.description}`)}`);
      // views get no privileges by default (and the base tables none for PUBLIC): the reader gets SELECT only
      if (granted) await tx.unsafe(`GRANT SELECT ON ${name} TO ${ident(readerRole)}`);
    }
    for (const view of todo.drop) {
      try {
        await tx.savepoint((sp) => sp.unsafe(`DROP VIEW ${ident(viewSchema)}.${ident(view)}`));
        result.dropped.push(view);
      } catch (e) {
        result.skipped.push(`${view}: not dropped: ${(e as Error).message}`);
      }
    }
  });
  return result;
}

/**
 * CREATE OR REPLACE keeps the view's identity (grants, views of users built on it) but only when the columns
 * before the new ones stay as they were; otherwise the view is dropped and made again, which fails, leaving
 * the old view, when a user's own view depends on it.
 */
async function writeView(
  tx: postgres.TransactionSql,
  name: string,
  view: Wanted,
  exists: boolean,
  result: SyncResult,
): Promise<boolean> {
  try {
    await tx.savepoint((sp) => sp.unsafe(`CREATE OR REPLACE VIEW ${name} AS\n${view.select}`));
    (exists ? result.replaced : result.created).push(view.name);
    return true;
  } catch (e) {
    if (!exists) {
      result.skipped.push(`${view.name}: not created: ${(e as Error).message}`);
      return false;
    }
  }
  try {
    await tx.savepoint(async (sp) => {
      await sp.unsafe(`DROP VIEW ${name}`);
      await sp.unsafe(`CREATE VIEW ${name} AS\n${view.select}`);
    });
    result.replaced.push(view.name);
    return true;
  } catch (e) {
    result.skipped.push(`${view.name}: not replaced: ${(e as Error).message}`);
    return false;
  }
}

/** The schema of `objects` and `changes` (where the migrations made them). */
export async function baseSchema(sql: postgres.Sql): Promise<string> {
  const [row] = await sql<{ schema: string | null }[]>`
    SELECT n.nspname AS schema FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = to_regclass('objects')`;
  if (!row?.schema) throw new Error('table objects not found: are the migrations applied?');
  return row.schema;
}
