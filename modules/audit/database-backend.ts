/**
 * The database backend (--audit-database): events go to the `audit_events` table in batches, off the request
 * path, as kube's buffered backend sends them: a bounded buffer (a full one drops the event and counts it, the
 * request never waits), a batch when it holds `batchMax` events or `flushMs` after its first, one batch in
 * flight at a time (one INSERT of all its rows), committed without waiting for the WAL flush
 * (synchronous_commit off: a crash of PostgreSQL may lose the last fraction of a second of events, as a crash
 * of the server loses what its buffer holds). Rows older than --audit-retention are pruned every minute.
 */
import type { Sql } from 'postgres';
import { ArrayLiteral } from './array-literal.js';
import type { ObjectReference } from './event.js';
import type { AuditEvent } from './sinks.js';

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

/** A column of `audit_events`, the kind of its values and where they come from. */
interface Column {
  name: string;
  kind: 'micros' | 'int' | 'text' | 'json';
  /** of the row's event, and of the RequestReceived it holds too (with the bits of what that lacked) */
  value: (e: AuditEvent, received: AuditEvent | undefined, lacks: number) => string | number | undefined;
}

/** The table's columns (modules/storage/schema.ts); the view `k8s.audit_events` puts the events back together. */
const COLUMNS: readonly Column[] = [
  { name: 'at', kind: 'micros', value: (e) => e.atMicros },
  { name: 'received_at', kind: 'micros', value: (e) => e.receivedMicros },
  { name: 'audit_id', kind: 'text', value: (e) => e.auditID },
  { name: 'stage', kind: 'text', value: (e) => e.stage },
  { name: 'level', kind: 'text', value: (e) => e.level },
  { name: 'verb', kind: 'text', value: (e) => e.verb },
  { name: 'request_uri', kind: 'text', value: (e) => e.requestURI },
  { name: 'user_info', kind: 'json', value: (e) => e.user },
  { name: 'impersonated_user_info', kind: 'json', value: (e) => e.impersonatedUser },
  { name: 'source_ips', kind: 'json', value: (e) => e.sourceIPs },
  { name: 'user_agent', kind: 'text', value: (e) => e.userAgent },
  { name: 'api_group', kind: 'text', value: (e) => e.objectRef?.apiGroup },
  { name: 'api_version', kind: 'text', value: (e) => e.objectRef?.apiVersion },
  { name: 'resource', kind: 'text', value: (e) => e.objectRef?.resource },
  { name: 'subresource', kind: 'text', value: (e) => e.objectRef?.subresource },
  { name: 'namespace', kind: 'text', value: (e) => e.objectRef?.namespace },
  { name: 'name', kind: 'text', value: (e) => e.objectRef?.name },
  { name: 'uid', kind: 'text', value: (e) => e.objectRef?.uid },
  { name: 'resource_version', kind: 'text', value: (e) => e.objectRef?.resourceVersion },
  { name: 'code', kind: 'int', value: (e) => e.code },
  { name: 'response_status', kind: 'json', value: (e) => e.responseStatus },
  { name: 'request_object', kind: 'json', value: (e) => e.requestObject },
  { name: 'response_object', kind: 'json', value: (e) => e.responseObject },
  { name: 'annotations', kind: 'json', value: (e) => e.annotations },
  { name: 'received_stage_at', kind: 'micros', value: (_, received) => received?.atMicros },
  { name: 'received_lacks', kind: 'int', value: (_, received, lacks) => (received ? lacks : undefined) },
];

/**
 * The bits of the objectRef fields a request's RequestReceived event lacks that its later event `e` has (decoding
 * the object completes them); -1 when the one cannot be told from the other and what it lacks: not the same
 * request, or `e` is another RequestReceived, or `received` says what a RequestReceived never says (auditor.ts). The bits, as migration 0010's view reads
 * them: resource 1, namespace 2, name 4, uid 8, apiGroup 16, apiVersion 32, resourceVersion 64, subresource 128.
 */
function receivedLacks(received: AuditEvent, e: AuditEvent): number {
  if (
    e.stage === 'RequestReceived' ||
    received.receivedMicros !== e.receivedMicros ||
    received.auditID !== e.auditID ||
    received.level !== e.level ||
    received.requestURI !== e.requestURI ||
    received.verb !== e.verb ||
    received.user !== e.user ||
    received.sourceIPs !== e.sourceIPs ||
    received.userAgent !== e.userAgent ||
    received.impersonatedUser !== undefined ||
    received.code !== undefined ||
    received.responseStatus !== undefined ||
    received.requestObject !== undefined ||
    received.responseObject !== undefined ||
    received.annotations !== undefined
  )
    return -1;
  const own = received.objectRef ?? NO_REF;
  const later = e.objectRef ?? NO_REF;
  if (own === later) return 0;
  // each field by name: a field looked up by a key that varies is a slow property load (bench/audit)
  return (
    lacked(own.resource, later.resource, 1) |
    lacked(own.namespace, later.namespace, 2) |
    lacked(own.name, later.name, 4) |
    lacked(own.uid, later.uid, 8) |
    lacked(own.apiGroup, later.apiGroup, 16) |
    lacked(own.apiVersion, later.apiVersion, 32) |
    lacked(own.resourceVersion, later.resourceVersion, 64) |
    lacked(own.subresource, later.subresource, 128)
  );
}

const NO_REF: ObjectReference = {};

/** 0 when the field is the same, `bit` when only the later event has it, -1 (every bit) when they differ */
function lacked(own: string | undefined, later: string | undefined, bit: number): number {
  if (own === later) return 0;
  return own === undefined ? bit : -1;
}

const ARRAY_TYPE = { micros: 'int8[]', int: 'int4[]', text: 'text[]', json: 'text[]' } as const;

/**
 * One INSERT of a batch: a parameter per column, the array of its values, zipped into rows by one `unnest` per
 * array in the select list (PostgreSQL steps them in lockstep; `unnest(a, b, …)` in FROM first copied every row
 * into a tuplestore: a third more of PostgreSQL's time per event, bench/audit). Timestamps travel as microseconds
 * since the epoch (exact: below 2^53).
 */
const INSERT = `INSERT INTO "audit_events" (${COLUMNS.map((c) => `"${c.name}"`).join(', ')})
SELECT ${COLUMNS.map((c) => (c.kind === 'micros' ? `'epoch'::timestamptz + "${c.name}" * interval '1 microsecond'` : `"${c.name}"`)).join(', ')}
FROM (SELECT ${COLUMNS.map((c, i) => `unnest($${i + 1}::${ARRAY_TYPE[c.kind]}) AS "${c.name}"`).join(', ')}) e`;

/**
 * The events waiting, as the text of the INSERT's parameters: each event's values are written in as it comes,
 * so that nothing of it outlives its request (strings kept for up to `flushMs` outlived young-generation
 * collections and were copied again: bench/audit), and no JSON of the whole event is made. A RequestReceived
 * waits for its request's next event, to share its row (PostgreSQL's cost is per row: half the rows of a
 * request's two events cost it half the time); one whose request sent nothing more in the batch is written alone.
 */
class Batch {
  events = 0;
  private readonly columns = COLUMNS.map(() => new ArrayLiteral());
  /** RequestReceived events by auditID, waiting for their request's next */
  private readonly received = new Map<string, AuditEvent>();

  /** empty again, its buffers kept for the next batch */
  clear(): void {
    this.events = 0;
    for (const c of this.columns) c.clear();
  }

  add(e: AuditEvent): void {
    this.events++;
    const waiting = this.received.get(e.auditID);
    if (waiting) {
      this.received.delete(e.auditID);
      const lacks = receivedLacks(waiting, e);
      if (lacks >= 0) return this.row(e, waiting, lacks);
      this.row(waiting, undefined, 0);
    }
    if (e.stage === 'RequestReceived') this.received.set(e.auditID, e);
    else this.row(e, undefined, 0);
  }

  parameters(): string[] {
    for (const e of this.received.values()) this.row(e, undefined, 0);
    this.received.clear();
    return this.columns.map((c) => c.toString());
  }

  private row(e: AuditEvent, received: AuditEvent | undefined, lacks: number): void {
    for (let i = 0; i < COLUMNS.length; i++) {
      const c = COLUMNS[i];
      const v = c.value(e, received, lacks);
      if (c.kind === 'text') this.columns[i].text(v as string | undefined);
      else if (c.kind === 'json') this.columns[i].json(v as string | undefined);
      else this.columns[i].int(v as number | undefined);
    }
  }
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
  process(event: AuditEvent): void {
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
