/**
 * Which database this is, so that a restored one is noticed. A `pg_dump` restored into a new database (or a
 * cluster recovered to a point in time) holds the history of another database as of some past moment: the
 * clients of the old one may have seen revisions it never had, or other changes under the same revisions. So
 * when pgkube starts on a database whose recorded identity is not its own, it does what `etcdutl snapshot
 * restore --bump-revision --mark-compacted` does for etcd: the revision counter jumps far ahead (new writes never
 * reuse a revision the old database may have given out) and all history up to there counts as compacted
 * (watches and exact reads from before answer 410 Gone: clients relist). Objects keep their resourceVersions.
 */
import type postgres from 'postgres';

/** How far the revision counter jumps on a restore: more revisions than the old database can have written since
 * the dump (etcd's documented example bump; 9 million restores fit below 2^53) */
export const RESTORE_REVISION_BUMP = 1_000_000_000;

/** Any fixed number: replicas starting together on one restored database agree (one of them bumps). */
const IDENTITY_LOCK = 7_361_005;

/** The parts of the identity; one a role may not read (a managed service) counts as '?' every time. */
const IDENTITY_PARTS = [
  // the cluster: a new one for every initdb (a restore on another server)
  'SELECT system_identifier::text AS v FROM pg_control_system()',
  // the database: a new OID for every CREATE DATABASE (a restore beside the original); renames keep it
  'SELECT oid::text AS v FROM pg_database WHERE datname = current_database()',
  // the WAL timeline: a new one after a point-in-time recovery or a standby's promotion
  'SELECT substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) AS v',
];

export interface Adoption {
  /** the database's recorded identity was another's: the revision counter jumped and history was compacted */
  restored: boolean;
  /** watches and exact reads from revisions before this one answer 410 (0: none) */
  historyFrom: number;
  /** the revision counter as found (before a jump) */
  foundRv: number;
}

export async function liveIdentity(sql: postgres.Sql): Promise<string> {
  const parts: string[] = [];
  for (const query of IDENTITY_PARTS) {
    const rows = await sql.unsafe<{ v: string | null }[]>(query).catch(() => [{ v: '?' }]);
    parts.push(rows[0]?.v ?? '?');
  }
  return parts.join('/');
}

/**
 * Records this database's identity on first use; when the recorded one differs, moves the revision counter
 * RESTORE_REVISION_BUMP ahead and marks history up to the new revision compacted, in one transaction under an
 * advisory lock (replicas starting together: the first bumps, the others find their own identity recorded).
 */
export async function adoptDatabase(sql: postgres.Sql): Promise<Adoption> {
  const identity = await liveIdentity(sql);
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${IDENTITY_LOCK})`;
    const [found] = await tx`SELECT rv FROM revision WHERE id = 1 FOR UPDATE`;
    const foundRv = Number(found.rv);
    const [row] = await tx`SELECT identity, history_from FROM database_identity WHERE id = 1`;
    if (!row) {
      await tx`INSERT INTO database_identity (id, identity, history_from) VALUES (1, ${identity}, 0)`;
      return { restored: false, historyFrom: 0, foundRv };
    }
    if (row.identity === identity) return { restored: false, historyFrom: Number(row.history_from), foundRv };
    const [bumped] = await tx`
      UPDATE revision SET rv = rv + ${RESTORE_REVISION_BUMP} WHERE id = 1 RETURNING rv`;
    const historyFrom = Number(bumped.rv);
    await tx`UPDATE database_identity SET identity = ${identity}, history_from = ${historyFrom} WHERE id = 1`;
    return { restored: true, historyFrom, foundRv };
  });
}
