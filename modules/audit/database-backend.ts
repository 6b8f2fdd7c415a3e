/**
 * The database backend (--audit-database): events go to the `audit_events` table in batches, off the request
 * path, as kube's buffered backend sends them: a bounded buffer (a full one drops the event and counts it, the
 * request never waits), a batch when it holds `batchMax` events or `flushMs` after its first, one batch in
 * flight at a time (one INSERT of all its rows), committed without waiting for the WAL flush
 * (synchronous_commit off: a crash of PostgreSQL may lose the last fraction of a second of events, as a crash
 * of the server loses what its buffer holds). Rows older than --audit-retention are pruned every minute.
 */
import type { Sql } from 'postgres';
import type { SerializedEvent } from './sinks.js';

export interface DatabaseBackendOptions {
  /** events waiting at most (kube's --audit-*-batch-buffer-size default) */
  bufferSize: number;
  /** events that make an INSERT at once (more wait while one is in flight) */
  batchMax: number;
  /** how long the first event of a batch may wait */
  flushMs: number;
  /** --audit-retention */
  retentionMs: number;
  /** how often old rows are pruned */
  pruneEveryMs: number;
  /** events lost: plugin `buffered` (buffer full), `database` (the INSERT failed) */
  onError: (plugin: 'buffered' | 'database', events: number, error: unknown) => void;
}

export const databaseBackendDefaults = {
  bufferSize: 10_000,
  batchMax: 500,
  flushMs: 100,
  pruneEveryMs: 60_000,
};

/**
 * One batch, as two texts of one line per event (JSON has no raw newline, a MicroTime none at all): PostgreSQL
 * splits them and zips them into rows, and parses no JSON on the way in. The event stays text (the view
 * `k8s.audit_events` reads it as jsonb): parsing it into jsonb was the bulk of an event's cost (bench/audit).
 */
const INSERT = `INSERT INTO "audit_events" ("at", "event")
SELECT * FROM ROWS FROM (unnest(string_to_array($1::text, E'\\n')::timestamptz[]), unnest(string_to_array($2::text, E'\\n')))`;

/**
 * The events waiting, as the UTF-8 text of the INSERT's two parameters: each event's JSON is copied in as it
 * comes, while its string is fresh, and the string is garbage at once; the strings themselves, kept for up to
 * `flushMs`, outlived young-generation collections and were copied and flattened again (bench/audit).
 */
class Batch {
  events = 0;
  private json: Buffer = Buffer.allocUnsafe(256 * 1024);
  private jsonLength = 0;
  private ats: Buffer = Buffer.allocUnsafe(16 * 1024);
  private atsLength = 0;

  /** empty again, its buffers kept for the next batch */
  clear(): void {
    this.events = this.jsonLength = this.atsLength = 0;
  }

  add(event: SerializedEvent): void {
    this.json = room(this.json, this.jsonLength, event.json.length * 3 + 1);
    this.jsonLength += this.json.write(event.json, this.jsonLength, 'utf8');
    this.json[this.jsonLength++] = 0x0a;
    this.ats = room(this.ats, this.atsLength, event.at.length + 1);
    this.atsLength += this.ats.write(event.at, this.atsLength, 'latin1');
    this.ats[this.atsLength++] = 0x0a;
    this.events++;
  }

  /** the INSERT's parameters: the times and the events, a line each (no newline after the last) */
  parameters(): [string, string] {
    return [
      this.ats.toString('latin1', 0, this.atsLength - 1),
      this.json.toString('utf8', 0, this.jsonLength - 1),
    ];
  }
}

/** `buf`, or a copy twice as big, with `more` bytes free after `used` */
function room(buf: Buffer, used: number, more: number): Buffer {
  if (used + more <= buf.length) return buf;
  const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, used + more));
  buf.copy(bigger, 0, 0, used);
  return bigger;
}

export class DatabaseBackend {
  private batch = new Batch();
  /** the batch written last, reused (one is in flight at a time): its buffers have grown to the load's size */
  private spare = new Batch();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly pruner: NodeJS.Timeout;

  constructor(
    private readonly sql: Sql,
    private readonly o: DatabaseBackendOptions,
  ) {
    this.pruner = setInterval(() => void this.prune().catch(() => undefined), o.pruneEveryMs).unref();
  }

  /** One event. Never waits. */
  process(event: SerializedEvent): void {
    if (this.batch.events >= this.o.bufferSize) {
      this.o.onError('buffered', 1, new Error('audit buffer queue blocked'));
      return;
    }
    this.batch.add(event);
    this.schedule();
  }

  /** Writes everything buffered now (and what arrives meanwhile); resolves when it is written or lost. */
  async flush(): Promise<void> {
    while (this.batch.events > 0 || this.running) {
      this.write();
      await this.running;
    }
  }

  /** a batch now if one is full, else when the first event has waited flushMs */
  private schedule(): void {
    if (this.running) return;
    if (this.batch.events >= this.o.batchMax) this.write();
    else if (this.batch.events > 0) this.timer ??= setTimeout(() => this.write(), this.o.flushMs);
  }

  /** one INSERT of the events waiting, unless one is in flight (those that come meanwhile wait for it) */
  private write(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running || this.batch.events === 0) return;
    const batch = this.batch;
    this.batch = this.spare;
    this.running = this.sql
      .unsafe(INSERT, batch.parameters(), { prepare: true })
      .then(
        () => undefined,
        (e: unknown) => this.o.onError('database', batch.events, e),
      )
      .finally(() => {
        batch.clear();
        this.spare = batch;
        this.running = undefined;
        this.schedule();
      });
  }

  /** Removes the rows past the retention window; resolves with how many went. */
  async prune(): Promise<number> {
    const rows = await this.sql.unsafe(
      `DELETE FROM "audit_events" WHERE "at" < now() - make_interval(secs => $1)`,
      [this.o.retentionMs / 1000],
    );
    return rows.count;
  }

  async close(): Promise<void> {
    clearInterval(this.pruner);
    await this.flush();
  }
}
