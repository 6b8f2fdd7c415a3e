/**
 * Group commit. Concurrent writes of this replica are gathered into one statement that takes its revisions
 * from the `revision` row (whose lock orders commits across replicas), writes the object rows and their
 * change-log rows, and reports per write whether it applied. One failing write never aborts its batch-mates:
 * preconditions are part of each row's WHERE clause, and a statement error re-runs the batch one write at a time.
 */
import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import type { KubeObject } from '../api/object.js';
import { NAMESPACES_RESOURCE, type Change, type LocalCommit, type ObjectKey } from './store.js';

export type WriteOp =
  | { op: 'c'; key: ObjectKey; uid: string; body: KubeObject; activeNamespace?: string }
  | { op: 'u'; key: ObjectKey; body: KubeObject; expectedRv: number }
  | { op: 'd'; key: ObjectKey; expectedRv: number };

export interface WriteOutcome {
  /** the counter before the batch: the batch took revisions (base, base + batch size] */
  base: number;
  /** the revision the write committed at, when it applied */
  rv?: number;
  /** stored revision of the key in the statement's snapshot (undefined: absent) */
  currentRv?: number;
  namespaceState?: 'missing' | 'terminating' | 'active';
  /** the removed object, for an applied delete */
  deleted?: KubeObject;
}

interface Pending {
  op: WriteOp;
  keyText: string;
  /** run in a batch of its own: its previous batch failed as a whole */
  alone?: boolean;
  resolve(outcome: WriteOutcome): void;
  reject(error: unknown): void;
}

const MAX_BATCH = 256;

/** NOTIFY channel that wakes every replica's watch feed after a commit (a hint; the table is the truth). The
 * payload names the replica, so a replica can skip its own: it learned of those changes first-hand. */
export const CHANGE_CHANNEL = 'pgkube_changes';

export const BATCH_SQL = `
WITH ops AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS o(i int, op text, res text, ns text, name text, uid uuid, exp bigint, body jsonb, ans text)
),
-- one row: the counter bump, and the one notification of the batch (sent at commit)
c AS (UPDATE revision SET rv = rv + $2::int WHERE id = 1
  RETURNING rv - $2::int AS base,
    CASE WHEN $4::bool THEN pg_notify('${CHANGE_CHANNEL}', $3 || ' ' || rv::text) END AS notified),
ins AS (
  INSERT INTO objects (resource, namespace, name, uid, rv, body)
  SELECT o.res, o.ns, o.name, o.uid, c.base + o.i, o.body FROM ops o CROSS JOIN c
  WHERE o.op = 'c' AND (o.ans IS NULL OR EXISTS (
    SELECT 1 FROM objects n
    WHERE n.resource = '${NAMESPACES_RESOURCE}' AND n.namespace = '' AND n.name = o.ans
      AND n.body->'metadata'->'deletionTimestamp' IS NULL))
  ON CONFLICT DO NOTHING
  RETURNING rv, resource, namespace, name, body
),
upd AS (
  UPDATE objects t SET rv = c.base + o.i, body = o.body
  FROM ops o CROSS JOIN c
  WHERE o.op = 'u' AND t.resource = o.res AND t.namespace = o.ns AND t.name = o.name AND t.rv = o.exp
  RETURNING t.rv, t.resource, t.namespace, t.name, t.body
),
del AS (
  DELETE FROM objects t USING ops o CROSS JOIN c
  WHERE o.op = 'd' AND t.resource = o.res AND t.namespace = o.ns AND t.name = o.name AND t.rv = o.exp
  RETURNING c.base + o.i AS rv, t.resource, t.namespace, t.name, t.body
),
done AS (
  SELECT rv, resource, namespace, name, 1 AS type, body FROM ins
  UNION ALL SELECT rv, resource, namespace, name, 2, body FROM upd
  UNION ALL SELECT rv, resource, namespace, name, 3, body FROM del
),
log AS (
  INSERT INTO changes (rv, resource, namespace, name, type, body)
  SELECT rv, resource, namespace, name, type, body FROM done
)
SELECT o.i, c.base, d.rv AS rv, CASE WHEN d.type = 3 THEN d.body END AS deleted,
  (SELECT t.rv FROM objects t WHERE t.resource = o.res AND t.namespace = o.ns AND t.name = o.name) AS cur,
  CASE WHEN o.ans IS NOT NULL THEN (
    SELECT CASE WHEN n.body->'metadata'->'deletionTimestamp' IS NULL THEN 'active' ELSE 'terminating' END
    FROM objects n WHERE n.resource = '${NAMESPACES_RESOURCE}' AND n.namespace = '' AND n.name = o.ans
  ) END AS ns
FROM ops o CROSS JOIN c
LEFT JOIN done d ON d.rv = c.base + o.i
`;

function keyText(key: ObjectKey): string {
  return `${key.resource}\u0000${key.namespace}\u0000${key.name}`;
}

/** `i` is 1-based: the write commits at revision base + i, where base is the counter before the batch. */
function toRow(op: WriteOp, i: number): Record<string, unknown> {
  const row: Record<string, unknown> = {
    i,
    op: op.op,
    res: op.key.resource,
    ns: op.key.namespace,
    name: op.key.name,
  };
  if (op.op === 'c') {
    row.uid = op.uid;
    row.body = op.body;
    if (op.activeNamespace !== undefined) row.ans = op.activeNamespace;
  } else {
    row.exp = op.expectedRv;
    if (op.op === 'u') row.body = op.body;
  }
  return row;
}

export class WriteBatcher {
  private queue: Pending[] = [];
  /** names this process in change notifications */
  readonly replica = randomUUID();
  /** told of every committed batch, with its changes (the watch cache of this replica) */
  onCommit?: (commit: LocalCommit) => void;
  /**
   * Whether batches NOTIFY the other replicas. Off while none listens: each notification wakes every listening
   * backend and its replica, which in this VM costs about as much CPU as a small write.
   */
  notify = true;
  private busy = false;
  private scheduled = false;

  constructor(private readonly sql: postgres.Sql) {}

  submit(op: WriteOp): Promise<WriteOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ op, keyText: keyText(op.key), resolve, reject });
      if (!this.busy && !this.scheduled) {
        this.scheduled = true;
        // setImmediate lets the writes that arrived in the same I/O turn join this batch
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** One batch in flight; the next one leaves as soon as it commits, before its writers are answered. */
  private pump(): void {
    if (this.busy || this.queue.length === 0) return;
    this.busy = true;
    const batch = this.takeBatch();
    this.execute(batch.map((p) => p.op)).then(
      (outcomes) => {
        this.busy = false;
        this.pump();
        this.report(batch, outcomes);
        batch.forEach((p, i) => p.resolve(outcomes[i]));
      },
      (error) => {
        this.busy = false;
        if (batch.length === 1) batch[0].reject(error);
        // isolate the write that broke the statement: its batch-mates must not fail with it
        else this.queue.unshift(...batch.map((p) => ({ ...p, alone: true })));
        this.pump();
      },
    );
  }

  private report(batch: Pending[], outcomes: WriteOutcome[]): void {
    if (!this.onCommit || outcomes.length === 0) return;
    const changes: Change[] = [];
    batch.forEach(({ op }, i) => {
      const o = outcomes[i];
      if (o.rv === undefined) return;
      const body = op.op === 'd' ? o.deleted! : op.body;
      body.metadata.resourceVersion = String(o.rv);
      changes.push({
        ...op.key,
        rv: o.rv,
        type: op.op === 'c' ? 'ADDED' : op.op === 'u' ? 'MODIFIED' : 'DELETED',
        object: body,
      });
    });
    const base = outcomes[0].base;
    this.onCommit({ base, rv: base + batch.length, changes });
  }

  /** Up to MAX_BATCH writes on distinct keys; a second write to a key waits for the next batch. */
  private takeBatch(): Pending[] {
    if (this.queue[0].alone) return [this.queue.shift()!];
    const batch: Pending[] = [];
    const keys = new Set<string>();
    const rest: Pending[] = [];
    for (const p of this.queue) {
      if (batch.length < MAX_BATCH && !p.alone && !keys.has(p.keyText)) {
        keys.add(p.keyText);
        batch.push(p);
      } else {
        rest.push(p);
      }
    }
    this.queue = rest;
    return batch;
  }

  private async execute(ops: WriteOp[]): Promise<WriteOutcome[]> {
    const rows = await this.sql.unsafe(
      BATCH_SQL,
      [ops.map((op, i) => toRow(op, i + 1)) as never, ops.length, this.replica, this.notify],
      {
        prepare: true,
      },
    );
    const outcomes: WriteOutcome[] = new Array(ops.length);
    for (const row of rows) {
      const i = (row.i as number) - 1;
      const op = ops[i];
      outcomes[i] = {
        base: Number(row.base),
        rv: row.rv === null ? undefined : Number(row.rv),
        currentRv: row.cur === null ? undefined : Number(row.cur),
        namespaceState: op.op === 'c' && op.activeNamespace !== undefined ? (row.ns ?? 'missing') : undefined,
        deleted: row.deleted ?? undefined,
      };
    }
    return outcomes;
  }
}
