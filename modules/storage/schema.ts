/**
 * The PostgreSQL schema. `objects` holds the current revision of each key; `changes` is the append-only change
 * log that watchers tail by resourceVersion, and holds every body: an object's body is its change-log row at
 * `objects.rv`, which pruning keeps (a body written once, not twice: half the WAL and table space per write).
 * `revision` is the one-row counter whose row lock orders commits, so that resourceVersion order equals commit
 * order across every replica (ARCHITECTURE.md, "Storage invariants").
 *
 * Bodies are stored without `metadata.resourceVersion`: the `rv` column is the truth and is put back on read.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
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
  // GIN (jsonb_path_ops: containment only, smaller and faster than jsonb_ops): label queries on the k8s.* views
  // (`labels @> '{"team":"a"}'`, modules/sql) find their rows without reading every body of the kind
  (t) => [
    index('changes_at').using('brin', t.at),
    index('changes_labels').using('gin', sql`(${t.body} -> 'metadata' -> 'labels') jsonb_path_ops`),
  ],
);

/**
 * The audit log's database backend (--audit-database, modules/audit): one row per audit.k8s.io/v1 Event (or two:
 * a request's RequestReceived may ride along in its next event's row), its fields as columns (objectRef's
 * flattened; the user, the source IPs, a full responseStatus, the request's and response's objects and the
 * annotations as their JSON text), written as they come, parsed by nothing on the way in. The view
 * `k8s.audit_events` (migration 0010) gives one row per event and puts each back together as kube's JSON. `at` is the
 * stageTimestamp, for range queries and pruning past --audit-retention. REPLICA IDENTITY FULL (no key): logical
 * replication of the prunes still works.
 */
const microTimestamp = (name: string) => timestamp(name, { withTimezone: true, precision: 6 });
export const auditEvents = pgTable(
  'audit_events',
  {
    /** stageTimestamp */
    at: microTimestamp('at').notNull(),
    /** requestReceivedTimestamp */
    receivedAt: microTimestamp('received_at').notNull(),
    auditId: text('audit_id').notNull(),
    stage: text('stage').notNull(),
    level: text('level').notNull(),
    verb: text('verb').notNull(),
    requestUri: text('request_uri').notNull(),
    /** JSON: the authenticated user (`{}` when authentication failed) */
    userInfo: text('user_info').notNull(),
    /** JSON */
    impersonatedUserInfo: text('impersonated_user_info'),
    /** JSON array */
    sourceIps: text('source_ips'),
    userAgent: text('user_agent'),
    apiGroup: text('api_group'),
    apiVersion: text('api_version'),
    resource: text('resource'),
    subresource: text('subresource'),
    namespace: text('namespace'),
    name: text('name'),
    uid: text('uid'),
    resourceVersion: text('resource_version'),
    /** responseStatus.code */
    code: integer('code'),
    /** JSON of the responseStatus when it says more than its code */
    responseStatus: text('response_status'),
    /** JSON */
    requestObject: text('request_object'),
    /** JSON */
    responseObject: text('response_object'),
    /** JSON object */
    annotations: text('annotations'),
    /**
     * The stageTimestamp of the request's RequestReceived event when the row holds it too: it says nothing the
     * row's own event does not, but for the objectRef fields decoding the object added (PostgreSQL's cost is
     * per row, and a request's first two events mostly land in one batch: bench/audit)
     */
    receivedStageAt: microTimestamp('received_stage_at'),
    /** bits of the objectRef fields that RequestReceived lacked (modules/audit/database-backend.ts) */
    receivedLacks: smallint('received_lacks'),
  },
  // no primary key and BRIN indexes: per row, a B-tree insert and a sequence bump cost half again as much
  // (measured: 20 vs 30 µs an event); rows arrive in time order, so a block range summary finds them
  (t) => [
    index('audit_events_at').using('brin', t.at),
    index('audit_events_received_stage_at').using('brin', t.receivedStageAt),
  ],
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
