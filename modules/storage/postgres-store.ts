/** The Store port on PostgreSQL (postgres.js). SQL and PostgreSQL error codes stay in this file. */
import postgres from 'postgres';
import type { KubeObject } from '../api/index.js';
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  RequiredObjectDeletingError,
  RequiredObjectMissingError,
  StorageError,
  UnavailableError,
  type Change,
  type ChangePage,
  type ChangeType,
  type LocalCommit,
  type CreateOptions,
  type ListResult,
  type ObjectKey,
  type Snapshot,
  type Store,
  type Stored,
} from './store.js';
import { CHANGE_CHANNEL, WriteBatcher, type WriteOutcome } from './write-batch.js';
import { Circuit, defaultCircuitOptions, type CircuitOptions } from './circuit.js';
import { CorruptListError, decodeRow, type BodyCheck, type CorruptObjectError } from './corrupt.js';

/** the statement postgres.js runs on its listening connection, as pg_stat_activity shows it afterwards */
const LISTEN_QUERY = `listen "${CHANGE_CHANNEL}"`;
const PEER_CHECK_MS = 1000;
/** every this many pruning runs, one looks at the whole change log (see pruneChanges) */
const SWEEP_EVERY = 10;

const changeTypes: ChangeType[] = ['ADDED', 'ADDED', 'MODIFIED', 'DELETED'];

export function withRv(body: KubeObject, rv: number): Stored {
  body.metadata.resourceVersion = String(rv);
  return { rv, object: body };
}

/** The body as stored: the rv column, not the body, carries the resourceVersion. */
function storedBody(object: KubeObject): KubeObject {
  if (object.metadata.resourceVersion === undefined) return object;
  const { resourceVersion: _rv, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/** what postgres.js and Node call a lost or refused connection */
const CONNECTION_CODES =
  /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|CONNECTION_|CONNECT_TIMEOUT)/;

/**
 * Connection-level failures become UnavailableError (the driver's error its `cause`, never its message);
 * everything else is a bug and stays as it is.
 */
export function translate(error: unknown): unknown {
  if (error instanceof StorageError) return error;
  if (error instanceof postgres.PostgresError) {
    // class 08: connection exception; 57P: operator intervention (shutdown); 53: insufficient resources
    if (/^(08|57P|53)/.test(error.code)) return new UnavailableError(undefined, { cause: error });
    return error;
  }
  const code = (error as { code?: string })?.code;
  if (typeof code === 'string' && CONNECTION_CODES.test(code))
    return new UnavailableError(undefined, { cause: error });
  return error;
}

export class PostgresStore implements Store {
  private readonly batcher: WriteBatcher;

  /** pruning: where the next run starts (a timestamp, as PostgreSQL wrote it), and how many runs there were */
  private prunedSince = '-infinity';
  private pruneRuns = 0;

  /** open while the database is unreachable: calls fail at once (503) instead of waiting on the driver */
  readonly circuit: Circuit;

  /** the kind-level check of bodies read (the registry's), after the structural one */
  private bodyCheck?: BodyCheck;

  /** the pool statements run on: `listener`'s, or one made after an outage */
  private sql: postgres.Sql;

  constructor(
    /** the pool given: its LISTEN connection carries the other replicas' hints */
    private readonly listener: postgres.Sql,
    options: Partial<CircuitOptions> = {},
    /**
     * makes a new pool. When given, the circuit's opening starts one: postgres.js 3.4.9 keeps a lost connection's
     * state for its next one (a buffered write whose timer was cleared: the next startup message is never sent,
     * CONNECT_TIMEOUT after 2 s; the last error received, replayed onto the next statement), so connections lost
     * in an outage would fail statements for seconds after the database returned
     */
    private readonly newPool?: () => postgres.Sql,
  ) {
    this.sql = listener;
    // a pooled connection can fail its next statement with the error its terminated backend sent (see
    // Circuit.read): the database is down only when a second attempt fails too
    const probe = () => this.sql`SELECT 1`.catch(() => this.sql`SELECT 1`);
    this.circuit = new Circuit(probe, translate, { ...defaultCircuitOptions, ...options });
    this.batcher = new WriteBatcher(() => this.sql, this.circuit);
    if (newPool) this.circuit.onChange((open) => open && this.renewPool());
  }

  /** stops the circuit's timers and ends the pools this store made (the one given is its owner's to end) */
  async close(): Promise<void> {
    this.circuit.stop();
    if (this.sql !== this.listener) await this.sql.end({ timeout: 1 });
  }

  /** while the circuit is open nothing waits on the old pool: what was in flight has failed already */
  private renewPool(): void {
    const old = this.sql;
    this.sql = this.newPool!();
    if (old !== this.listener) void old.end({ timeout: 0 });
  }

  setBodyCheck(check: BodyCheck): void {
    this.bodyCheck = check;
  }

  /** A row's body decoded (corrupt.ts): the object, or its stub and error. */
  private decode(
    key: ObjectKey,
    rv: number,
    body: unknown,
  ): { object: KubeObject; corrupt?: CorruptObjectError } {
    return decodeRow(key, rv, body, this.bodyCheck);
  }

  async get(key: ObjectKey): Promise<Stored | undefined> {
    const rows = await this.circuit.read(
      () => this.sql`
        SELECT o.rv, b.body FROM objects o JOIN changes b ON b.rv = o.rv
        WHERE o.resource = ${key.resource} AND o.namespace = ${key.namespace} AND o.name = ${key.name}`,
    );
    if (rows.length === 0) return undefined;
    const rv = Number(rows[0].rv);
    const { object, corrupt } = this.decode(key, rv, rows[0].body);
    if (corrupt) throw corrupt;
    return { rv, object };
  }

  async list(resource: string, namespace?: string): Promise<ListResult> {
    // one statement, one snapshot: the counter and the rows agree
    const rows = await this.circuit.read(() =>
      namespace === undefined
        ? this.sql`
            SELECT r.rv AS cur, o.namespace, o.name, o.rv, b.body FROM revision r
            LEFT JOIN (objects o JOIN changes b ON b.rv = o.rv) ON o.resource = ${resource}
            WHERE r.id = 1 ORDER BY o.namespace, o.name`
        : this.sql`
            SELECT r.rv AS cur, o.namespace, o.name, o.rv, b.body FROM revision r
            LEFT JOIN (objects o JOIN changes b ON b.rv = o.rv)
              ON o.resource = ${resource} AND o.namespace = ${namespace}
            WHERE r.id = 1 ORDER BY o.name`,
    );
    const items: Stored[] = [];
    const corrupt: CorruptObjectError[] = [];
    for (const row of rows) {
      if (row.rv === null) continue;
      const rv = Number(row.rv);
      const key = { resource, namespace: row.namespace, name: row.name };
      const decoded = this.decode(key, rv, row.body);
      if (decoded.corrupt) corrupt.push(decoded.corrupt);
      else items.push({ rv, object: decoded.object });
    }
    // kube's list names the objects it could not read, and returns none of the others
    if (corrupt.length > 0) throw CorruptListError.of(corrupt);
    return { rv: Number(rows[0].cur), items };
  }

  async create(key: ObjectKey, object: KubeObject, options: CreateOptions = {}): Promise<Stored> {
    const body = storedBody(object);
    const outcome = await this.write({
      op: 'c',
      key,
      uid: String(object.metadata.uid),
      body,
      requires: options.requires,
    }).catch((error: unknown) => {
      // another replica committed this key after the batch's snapshot was taken (see batch-sql.ts)
      if (isKeyTaken(error)) throw new AlreadyExistsError(key);
      throw error;
    });
    if (outcome.rv !== undefined) return withRv(body, outcome.rv);
    if (outcome.requiredState === 'missing') throw new RequiredObjectMissingError(options.requires!);
    if (outcome.requiredState === 'deleting') throw new RequiredObjectDeletingError(options.requires!);
    throw new AlreadyExistsError(key);
  }

  async update(key: ObjectKey, object: KubeObject, expectedRv: number): Promise<Stored> {
    const body = storedBody(object);
    const outcome = await this.write({ op: 'u', key, body, expectedRv });
    if (outcome.rv !== undefined) return withRv(body, outcome.rv);
    if (outcome.currentRv === undefined) throw new NotFoundError(key);
    throw new ConflictError(key);
  }

  async delete(key: ObjectKey, expectedRv: number, tombstone?: KubeObject): Promise<Stored> {
    const body = tombstone && storedBody(tombstone);
    const outcome = await this.write({ op: 'd', key, expectedRv, body });
    // the removed body may be one SQL wrote: the caller gets its stub then (its removal is what was asked)
    if (outcome.rv !== undefined)
      return { rv: outcome.rv, object: decodeRow(key, outcome.rv, outcome.deleted).object };
    if (outcome.currentRv === undefined) throw new NotFoundError(key);
    throw new ConflictError(key);
  }

  async ping(): Promise<void> {
    if (this.circuit.open) throw new UnavailableError();
    await this.circuit.read(() => this.sql`SELECT 1`);
  }

  async currentRv(): Promise<number> {
    const rows = await this.circuit.read(() => this.sql`SELECT rv FROM revision WHERE id = 1`);
    return Number(rows[0].rv);
  }

  async changes(afterRv: number, limit: number): Promise<ChangePage> {
    // one statement, one snapshot: every change up to the counter read here is visible in it
    const rows = await this.circuit.read(
      () => this.sql`
        SELECT r.rv AS cur, c.rv, c.resource, c.namespace, c.name, c.type, c.body FROM revision r
        LEFT JOIN LATERAL (
          SELECT rv, resource, namespace, name, type, body FROM changes
          WHERE rv > ${afterRv} ORDER BY rv LIMIT ${limit}
        ) c ON true
        WHERE r.id = 1`,
    );
    const changes: Change[] = [];
    for (const row of rows) {
      if (row.rv === null) continue;
      const rv = Number(row.rv);
      const key = { resource: row.resource, namespace: row.namespace, name: row.name };
      // the watch cache's feed: a corrupt body comes as its stub and error, never as a failure of the page
      const { object, corrupt } = this.decode(key, rv, row.body);
      changes.push({ rv, ...key, type: changeTypes[row.type], object, corrupt });
    }
    const reach = changes.length < limit ? Number(rows[0].cur) : changes[changes.length - 1].rv;
    return { changes, rv: Math.max(reach, afterRv) };
  }

  async snapshot(): Promise<Snapshot> {
    // every object: as long as it takes (the watch cache's start)
    const rows = await this.circuit.read(
      () => this.sql`
      SELECT r.rv AS cur, o.resource, o.namespace, o.name, o.rv, b.body FROM revision r
      LEFT JOIN (objects o JOIN changes b ON b.rv = o.rv) ON true
      WHERE r.id = 1`,
      Infinity,
    );
    const items: Snapshot['items'] = [];
    for (const row of rows) {
      if (row.rv === null) continue;
      const rv = Number(row.rv);
      const key = { resource: row.resource, namespace: row.namespace, name: row.name };
      const { object, corrupt } = this.decode(key, rv, row.body);
      items.push({ ...key, rv, object, corrupt });
    }
    return { rv: Number(rows[0].cur), items };
  }

  async historyStart(ageMs: number): Promise<number> {
    const rows = await this.circuit.read(
      // a restored database's history counts as compacted (database-identity.ts)
      () => this.sql`
      SELECT GREATEST(
          COALESCE(min(rv) - 1, (SELECT rv FROM revision WHERE id = 1)),
          (SELECT history_from FROM database_identity WHERE id = 1)) AS start FROM changes
      WHERE at > now() - make_interval(secs => ${ageMs / 1000})`,
      Infinity,
    );
    return Number(rows[0].start);
  }

  /**
   * Drops change-log rows older than `ageMs` but the current body of each object (its row at objects.rv). A run
   * looks only at rows that have aged past the window since the last run (the BRIN index on `at` finds them);
   * every SWEEP_EVERY-th run looks at every old row, for rows that were current then and have been replaced.
   */
  async pruneChanges(ageMs: number): Promise<number> {
    const since = this.pruneRuns++ % SWEEP_EVERY === 0 ? '-infinity' : this.prunedSince;
    // the next run starts a minute before this one's limit: `at` is when a write's transaction began, so a
    // write that began just before this run and committed after it would otherwise fall between the two
    const [row] = await this.circuit.run(
      this.sql`
      WITH old AS MATERIALIZED (
        SELECT c.rv, NOT EXISTS (SELECT 1 FROM objects o
            WHERE o.resource = c.resource AND o.namespace = c.namespace AND o.name = c.name AND o.rv = c.rv
          ) AS replaced
        FROM changes c
        WHERE c.at >= ${since}::text::timestamptz AND c.at < now() - make_interval(secs => ${ageMs / 1000})
      ), gone AS (
        DELETE FROM changes d WHERE d.rv IN (SELECT rv FROM old WHERE replaced)
          AND d.rv < (SELECT max(rv) FROM changes)
        RETURNING d.rv
      )
      SELECT (SELECT count(*) FROM gone)::int AS dropped,
        (now() - make_interval(secs => ${ageMs / 1000}) - interval '1 minute')::text AS since`,
      Infinity,
    );
    this.prunedSince = row.since;
    return row.dropped;
  }

  async subscribe(onChange: (local?: LocalCommit) => void): Promise<() => Promise<void>> {
    this.batcher.onCommit = onChange;
    // our own batches were reported above, with their changes; other replicas' only as a hint
    const listening = await this.listener
      .listen(CHANGE_CHANNEL, (payload) => {
        if (!payload.startsWith(`${this.batcher.replica} `)) onChange();
      })
      .catch(fail);
    // a hint either way: down, the reader learns it at once (its read fails); back, it reads what was
    // committed meanwhile (by anyone) at once
    const stopFollowing = this.circuit.onChange(() => onChange());
    const peers = setInterval(() => void this.lookForListeners(listening.state.pid), PEER_CHECK_MS);
    peers.unref();
    void this.lookForListeners(listening.state.pid);
    return async () => {
      clearInterval(peers);
      stopFollowing();
      this.batcher.onCommit = undefined;
      this.batcher.notify = true;
      await listening.unlisten();
    };
  }

  /**
   * Batches notify only while another backend listens on the channel (another replica's feed). A replica that
   * starts listening is seen within PEER_CHECK_MS; until then its 1 s poll finds the changes (the change log is
   * the truth, a notification only a hint). A session whose statement text cannot be seen (another role's, or
   * any with track_activities off, or one that has run nothing yet) may be a listener: it keeps notifications on.
   */
  private async lookForListeners(ownPid: number | null): Promise<void> {
    if (this.circuit.open) return;
    try {
      const [row] = await this.circuit.run(this.sql`
        SELECT EXISTS (
          SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> ${ownPid ?? 0}
            AND coalesce(query, '') IN (${LISTEN_QUERY}, '<insufficient privilege>', '')) AS others`);
      this.batcher.notify = row.others;
    } catch {
      this.batcher.notify = true;
    }
  }

  /** while the circuit is open, a write waits (briefly) for it to close before it joins a batch */
  private write(op: Parameters<WriteBatcher['submit']>[0]): Promise<WriteOutcome> {
    if (this.circuit.open) return this.circuit.wait().then(() => this.batcher.submit(op));
    return this.batcher.submit(op);
  }
}

const OBJECTS_KEY = 'objects_resource_namespace_name_pk';

function isKeyTaken(error: unknown): boolean {
  return (
    error instanceof postgres.PostgresError && error.code === '23505' && error.constraint_name === OBJECTS_KEY
  );
}

function fail(error: unknown): never {
  throw translate(error);
}
