/**
 * The PostgreSQL schema. `objects` holds the current revision of each key; `changes` is the append-only change
 * log that watchers tail by resourceVersion, and holds every body: an object's body is its change-log row at
 * `objects.rv`, which pruning keeps (a body written once, not twice: half the WAL and table space per write).
 * `revision` is the one-row counter whose row lock orders commits, so that resourceVersion order equals commit
 * order across every replica (ARCHITECTURE.md, "Storage invariants").
 *
 * Bodies are stored without `metadata.resourceVersion`: the `rv` column is the truth and is put back on read.
 */
import {
  bigint,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

export const revision = pgTable('revision', {
  id: smallint('id').primaryKey(),
  rv: bigint('rv', { mode: 'number' }).notNull(),
});

export const objects = pgTable(
  'objects',
  {
    /** `<group>/<resource>`, e.g. `/configmaps` or `coordination.k8s.io/leases` */
    resource: text('resource').notNull(),
    /** '' for cluster-scoped objects */
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    uid: uuid('uid').notNull(),
    /** the revision of the current body: the change-log row with this rv */
    rv: bigint('rv', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.resource, t.namespace, t.name] })],
);

export const changes = pgTable(
  'changes',
  {
    rv: bigint('rv', { mode: 'number' }).primaryKey(),
    resource: text('resource').notNull(),
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    /** 1 ADDED, 2 MODIFIED, 3 DELETED */
    type: smallint('type').notNull(),
    body: jsonb('body').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  // BRIN: `at` grows with the append-only log, so a block-range summary finds old rows for pruning at a
  // fraction of a B-tree's cost per insert
  (t) => [index('changes_at').using('brin', t.at)],
);

/**
 * The one row that says which database this is (database-identity.ts): PostgreSQL's system identifier, the
 * database's OID and the WAL timeline, as found when pgkube last started on it. A database restored from a dump
 * (or recovered to a point in time) brings the row of another one: pgkube then moves the revision counter far
 * ahead and treats all history up to there as compacted (`historyFrom`): clients that watched the old database
 * get 410 Gone and relist.
 */
export const databaseIdentity = pgTable('database_identity', {
  id: smallint('id').primaryKey(),
  identity: text('identity').notNull(),
  /** watches and exact reads from revisions before this one answer 410 (0: none) */
  historyFrom: bigint('history_from', { mode: 'number' }).notNull(),
});
