/**
 * The write-batch statement, built for the kinds of write a batch holds. A batch of creates (the common
 * case) gets a statement without the update and delete parts: PostgreSQL initialises every node of a plan on
 * each execution, so parts that touch no row still cost CPU per batch.
 *
 * Every lookup of `objects` is a correlated scalar subquery or a join on the full key. A cached generic plan
 * is made while the tables are nearly empty; an EXISTS or a join there may become a hashed or sequential scan
 * of the whole table, which costs O(objects) on every later batch (see write-batch.spec.ts).
 */
/** NOTIFY channel that wakes every replica's watch feed after a commit (a hint; the table is the truth). The
 * payload names the replica, so a replica can skip its own: it learned of those changes first-hand. */
export const CHANGE_CHANNEL = 'pgkube_changes';

/** Which kinds of write a batch holds. */
export interface BatchKinds {
  create: boolean;
  update: boolean;
  delete: boolean;
}

const OPS = `ops AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS o(i int, op text, res text, ns text, name text, uid uuid, exp bigint, body jsonb,
      req_res text, req_ns text, req_name text)
)`;

// one row: the counter bump, and the one notification of the batch (sent at commit, when $4 asks for it)
const COUNTER = `c AS (UPDATE revision SET rv = rv + $2::int WHERE id = 1
  RETURNING rv - $2::int AS base,
    CASE WHEN $4::bool THEN pg_notify('${CHANGE_CHANNEL}', $3 || ' ' || rv::text) END AS notified)`;

/** the stored revision of o's key, NULL when absent (in the statement's snapshot) */
const CURRENT_RV = `(SELECT t.rv FROM objects t WHERE t.resource = o.res AND t.namespace = o.ns AND t.name = o.name)`;

/** 'ok' / 'deleting' for the object o requires (CreateOptions.requires), NULL when it does not exist (its
 * body: its change-log row) */
const REQUIRED_STATE = `(SELECT CASE WHEN rb.body->'metadata'->'deletionTimestamp' IS NULL THEN 'ok' ELSE 'deleting' END
    FROM objects req JOIN changes rb ON rb.rv = req.rv
    WHERE req.resource = o.req_res AND req.namespace = o.req_ns AND req.name = o.req_name)`;

// The absence check reads the statement's snapshot. A create of the same key committed by another replica
// after that snapshot was taken makes the INSERT fail with a unique violation: the batch then re-runs one
// write at a time, and a lone create's unique violation means AlreadyExists (postgres-store.ts). This is
// cheaper per row than ON CONFLICT DO NOTHING, whose speculative insertion takes a lock and writes WAL twice.
// An INSERT's RETURNING sees only the inserted row: the body comes from its op (`i` is rv - base).
const INSERT = `ins AS (
  INSERT INTO objects (resource, namespace, name, uid, rv)
  SELECT o.res, o.ns, o.name, o.uid, c.base + o.i FROM ops o CROSS JOIN c
  WHERE o.op = 'c' AND ${CURRENT_RV} IS NULL AND (o.req_res IS NULL OR ${REQUIRED_STATE} = 'ok')
  RETURNING rv, resource, namespace, name
), ins_body AS (
  SELECT ins.rv, ins.resource, ins.namespace, ins.name, o.body FROM ins CROSS JOIN c JOIN ops o ON o.i = ins.rv - c.base
)`;

const UPDATE = `upd AS (
  UPDATE objects t SET rv = c.base + o.i
  FROM ops o CROSS JOIN c
  WHERE o.op = 'u' AND t.resource = o.res AND t.namespace = o.ns AND t.name = o.name AND t.rv = o.exp
  RETURNING t.rv, t.resource, t.namespace, t.name, o.body
)`;

// the DELETED change carries the object as it was: its change-log row at the revision being removed, or the
// tombstone the delete brought (a corrupt object's unsafe delete)
const DELETE = `del AS (
  DELETE FROM objects t USING ops o CROSS JOIN c
  WHERE o.op = 'd' AND t.resource = o.res AND t.namespace = o.ns AND t.name = o.name AND t.rv = o.exp
  RETURNING c.base + o.i AS rv, t.resource, t.namespace, t.name,
    COALESCE(o.body, (SELECT b.body FROM changes b WHERE b.rv = t.rv)) AS body
)`;

export function batchSql(kinds: BatchKinds): string {
  const parts = [OPS, COUNTER];
  /**
   * The CTEs of the writes that applied (`logged`: the same rows with their bodies, when that is another CTE),
   * with their change type and what the report returns of them.
   */
  const written: { cte: string; logged?: string; type: number; deleted: string }[] = [];
  if (kinds.create) {
    parts.push(INSERT);
    written.push({ cte: 'ins', logged: 'ins_body', type: 1, deleted: 'NULL::jsonb' });
  }
  if (kinds.update) {
    parts.push(UPDATE);
    written.push({ cte: 'upd', type: 2, deleted: 'NULL::jsonb' });
  }
  if (kinds.delete) {
    parts.push(DELETE);
    written.push({ cte: 'del', type: 3, deleted: 'body' });
  }
  if (written.length === 0) throw new Error('a write batch needs at least one write');
  const log = written
    .map((w) => `SELECT rv, resource, namespace, name, ${w.type}, body FROM ${w.logged ?? w.cte}`)
    .join('\n  UNION ALL ');
  parts.push(`log AS (
  INSERT INTO changes (rv, resource, namespace, name, type, body)
  ${log}
)`);
  const applied = written.map((w) => `SELECT rv, ${w.deleted} AS deleted FROM ${w.cte}`).join(' UNION ALL ');
  // the lookups explain a write that did not apply; CASE evaluates them only for those
  return `WITH ${parts.join(',\n')}
SELECT o.i, c.base, a.rv, a.deleted,
  CASE WHEN a.rv IS NULL AND o.op <> 'c' THEN ${CURRENT_RV} END AS cur,
  CASE WHEN a.rv IS NULL AND o.req_res IS NOT NULL THEN ${REQUIRED_STATE} END AS req
FROM ops o CROSS JOIN c
LEFT JOIN (${applied}) a ON a.rv = c.base + o.i
`;
}
