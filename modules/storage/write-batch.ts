/**
 * Group commit. Concurrent writes of this replica are gathered into one statement that takes its revisions
 * from the `revision` row (whose lock orders commits across replicas), writes the object rows and their
 * change-log rows, and reports per write whether it applied. One failing write never aborts its batch-mates:
 * preconditions are part of each row's WHERE clause, and a statement the database refuses re-runs the batch one
 * write at a time. A batch whose answer is lost once it was sent is never run again (see `failure`).
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import type { KubeObject } from '../api/index.js';
import { batchSql, type BatchKinds } from './batch-sql.js';
import { decodeRow } from './corrupt.js';
import type { Circuit, Statement } from './circuit.js';
import {
  StorageError,
  StorageTimeoutError,
  UnavailableError,
  type Change,
  type LocalCommit,
  type ObjectKey,
} from './store.js';

export { CHANGE_CHANNEL } from './batch-sql.js';

export type WriteOp =
  | { op: 'c'; key: ObjectKey; uid: string; body: KubeObject; requires?: ObjectKey }
  | { op: 'u'; key: ObjectKey; body: KubeObject; expectedRv: number }
  /** `body`: what the DELETED change carries instead of the stored body (a tombstone) */
  | { op: 'd'; key: ObjectKey; expectedRv: number; body?: KubeObject };

export interface WriteOutcome {
  /** the counter before the batch: the batch took revisions (base, base + batch size] */
  base: number;
  /** the revision the write committed at, when it applied */
  rv?: number;
  /** for an update or delete that did not apply: the key's stored revision (undefined: absent) */
  currentRv?: number;
  /** for a create with a required object that did not apply: that object's state ('ok': the key was taken) */
  requiredState?: 'missing' | 'deleting' | 'ok';
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

/** one statement text per mix of write kinds (each a prepared statement of its own) */
const statements = new Map<number, string>();

function statementFor(ops: WriteOp[]): string {
  const kinds: BatchKinds = { create: false, update: false, delete: false };
  for (const { op } of ops) {
    if (op === 'c') kinds.create = true;
    else if (op === 'u') kinds.update = true;
    else kinds.delete = true;
  }
  const id = (kinds.create ? 1 : 0) | (kinds.update ? 2 : 0) | (kinds.delete ? 4 : 0);
  let text = statements.get(id);
  if (text === undefined) statements.set(id, (text = batchSql(kinds)));
  return text;
}

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
    if (op.requires !== undefined) {
      row.req_res = op.requires.resource;
      row.req_ns = op.requires.namespace;
      row.req_name = op.requires.name;
    }
  } else {
    row.exp = op.expectedRv;
    if (op.op === 'u' || op.body !== undefined) row.body = op.body;
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

  constructor(
    /** the pool to run the next batch on */
    private readonly pool: () => postgres.Sql,
    /** bounds each batch's statement, and fails it at once while the database is unreachable */
    private readonly circuit?: Circuit,
  ) {}

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
        if (error instanceof StorageError) {
          // not applied (503), or perhaps applied (504): either way never run again
          for (const p of batch) p.reject(error);
          if (this.circuit?.open) this.failQueued();
        } else if (batch.length === 1) batch[0].reject(error);
        // isolate the write that broke the statement: its batch-mates must not fail with it
        else this.queue.unshift(...batch.map((p) => ({ ...p, alone: true })));
        this.pump();
      },
    );
  }

  /** the circuit is open: the writes waiting for a batch fail at once rather than one batch at a time */
  private failQueued(): void {
    const queued = this.queue;
    this.queue = [];
    for (const p of queued) p.reject(new UnavailableError());
  }

  private report(batch: Pending[], outcomes: WriteOutcome[]): void {
    if (!this.onCommit || outcomes.length === 0) return;
    const changes: Change[] = [];
    batch.forEach(({ op }, i) => {
      const o = outcomes[i];
      if (o.rv === undefined) return;
      const type = op.op === 'c' ? 'ADDED' : op.op === 'u' ? 'MODIFIED' : 'DELETED';
      // a removed body comes back from the database: it may be one SQL wrote (corrupt.ts)
      if (op.op === 'd') {
        const { object, corrupt } = decodeRow(op.key, o.rv, o.deleted);
        changes.push({ ...op.key, rv: o.rv, type, object, corrupt });
        return;
      }
      op.body.metadata.resourceVersion = String(o.rv);
      changes.push({ ...op.key, rv: o.rv, type, object: op.body });
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
    const statement = this.pool().unsafe(
      statementFor(ops),
      [ops.map((op, i) => toRow(op, i + 1)) as never, ops.length, this.replica, this.notify],
      { prepare: true },
    );
    const rows = await (this.circuit ? this.circuit.run(statement) : statement).catch((error: unknown) => {
      throw failure(error, statement);
    });
    try {
      return outcomesOf(ops, rows);
    } catch (error) {
      // it committed, but its answer does not say how each write fared
      throw new StorageTimeoutError(LOST_ANSWER, { cause: error });
    }
  }
}

const LOST_ANSWER = 'the storage backend did not say whether the write was applied';

/**
 * What a batch statement's failure says about its writes. Never handed to a connection: none applied (503).
 * The database's verdict on the statement (an ERROR: its transaction rolled back): none applied, and the
 * batch may run again, one write at a time, to find the write that broke it. Anything else once it was sent
 * (the connection lost before the answer, no answer in time, a fault in the driver) may follow its commit:
 * the writers hear 504, as kube answers a write whose outcome it cannot know, and it never runs again.
 */
function failure(error: unknown, statement: Statement<unknown>): unknown {
  // postgres.js sets `state` when it hands the statement to a connection
  if (!statement.state)
    return error instanceof UnavailableError ? error : new UnavailableError(undefined, { cause: error });
  if (error instanceof postgres.PostgresError && error.severity === 'ERROR') return error;
  if (error instanceof StorageTimeoutError) return error;
  return new StorageTimeoutError(LOST_ANSWER, { cause: error });
}

function outcomesOf(ops: WriteOp[], rows: readonly postgres.Row[]): WriteOutcome[] {
  const outcomes: WriteOutcome[] = new Array(ops.length);
  for (const row of rows) {
    const i = (row.i as number) - 1;
    const op = ops[i];
    const applied = row.rv !== null;
    outcomes[i] = {
      base: Number(row.base),
      rv: applied ? Number(row.rv) : undefined,
      currentRv: row.cur === null ? undefined : Number(row.cur),
      requiredState:
        !applied && op.op === 'c' && op.requires !== undefined ? (row.req ?? 'missing') : undefined,
      deleted: row.deleted ?? undefined,
    };
  }
  for (let i = 0; i < ops.length; i++) if (!outcomes[i]) throw new Error(`no outcome for write ${i + 1}`);
  return outcomes;
}
