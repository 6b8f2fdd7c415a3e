/**
 * The circuit in front of the database. Closed, every statement goes through, bounded by a timeout. A
 * connection failure makes it probe the database at once; a probe that fails opens it: the statements in flight
 * fail at once, new ones fail at once too (after waiting
 * at most `waitMs` for the database to come back), and a probe asks the database every `probeIntervalMs`; the
 * first probe that answers closes it again. A statement that outlives its timeout fails (a timeout) and makes
 * the circuit probe at once. No driver text leaves here: failures are UnavailableError and StorageTimeoutError,
 * the driver's error kept as their `cause`.
 */
import { StorageTimeoutError, UnavailableError } from './store.js';

export interface CircuitOptions {
  /** how long a call made while the circuit is open waits for it to close before it fails */
  waitMs: number;
  /** a statement that has not answered after this long fails with StorageTimeoutError */
  queryTimeoutMs: number;
  /** while open, the database is probed this often */
  probeIntervalMs: number;
  /** a probe that has not answered after this long failed */
  probeTimeoutMs: number;
  /** told when the circuit opens (with the driver's reason: logs are for operators) and closes */
  log?: (message: string) => void;
}

export const defaultCircuitOptions: CircuitOptions = {
  waitMs: 500,
  queryTimeoutMs: 5000,
  probeIntervalMs: 200,
  probeTimeoutMs: 1000,
};

/**
 * a statement: a promise, which the driver may be able to take back. postgres.js: `cancel()` takes a statement
 * not yet sent (no `state`) out of its queue; one already sent it cancels over a new connection, whose failure
 * (certain while the database is down) it leaves unhandled, so those are not cancelled here.
 */
export type Statement<T> = PromiseLike<T> & { cancel?: () => unknown; state?: unknown };

interface InFlight {
  deadline: number;
  statement: Statement<unknown>;
  reject(error: unknown): void;
}

export class Circuit {
  /** the database is thought unreachable: calls fail (or wait) without trying it */
  open = false;
  private readonly inFlight = new Set<InFlight>();
  private waiters = new Set<() => void>();
  private readonly listeners = new Set<(open: boolean) => void>();
  private probeTimer?: NodeJS.Timeout;
  /** the probe in flight, if any */
  private probing?: Promise<void>;
  private stopped = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    /** resolves when the database answers */
    private readonly probe: () => Promise<unknown>,
    /** the driver's error as a storage error: UnavailableError for connection failures, else as it is */
    private readonly translate: (error: unknown) => unknown,
    readonly options: CircuitOptions = defaultCircuitOptions,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(250, Math.max(10, options.queryTimeoutMs / 4)));
    this.sweeper.unref();
  }

  /**
   * Runs a statement (built, not yet started: postgres.js starts it on `then`). Fails at once while open; on
   * the happy path it costs one Set entry, no timer and no extra turn.
   */
  run<T>(statement: Statement<T>, timeoutMs = this.options.queryTimeoutMs): Promise<T> {
    if (this.open) return Promise.reject(new UnavailableError());
    return new Promise<T>((resolve, reject) => {
      const entry: InFlight = { deadline: Date.now() + timeoutMs, statement, reject };
      this.inFlight.add(entry);
      statement.then(
        (value) => {
          this.inFlight.delete(entry);
          resolve(value);
        },
        (error: unknown) => {
          if (!this.inFlight.delete(entry)) return; // answered already (timed out, or the circuit opened)
          const translated = this.translate(error);
          // one lost connection may be just that (a backend ended, a stale pooled connection after an outage):
          // the probe decides whether the database is down
          if (translated instanceof UnavailableError && !this.open) void this.check();
          reject(translated);
        },
      );
    });
  }

  /**
   * Runs an idempotent statement, made afresh by `make` for each attempt (waiting first, briefly, while open).
   * One whose connection failed runs once more if the probe that failure started finds the database: after
   * an outage a pooled
   * connection can fail the next statement it is given (postgres.js replays the error its last backend sent
   * when it was terminated onto the first statement of the new one, porsager/postgres#1223). Never a write:
   * a write's first attempt may have committed.
   */
  async read<T>(make: () => Statement<T>, timeoutMs = this.options.queryTimeoutMs): Promise<T> {
    if (this.open) await this.wait();
    try {
      return await this.run(make(), timeoutMs);
    } catch (error) {
      if (!(error instanceof UnavailableError)) throw error;
      // the failure made the circuit ask the database: if it is away, another attempt would fail too
      await this.probing;
      if (this.open) throw error;
      return this.run(make(), timeoutMs);
    }
  }

  /** Resolves once the circuit is closed; rejects with UnavailableError after `waitMs`. */
  wait(): Promise<void> {
    if (!this.open) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        reject(new UnavailableError());
      }, this.options.waitMs);
      this.waiters.add(done);
    });
  }

  /** told `true` when the circuit opens and `false` when it closes */
  onChange(listener: (open: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A connection failure: open, fail what is in flight, and probe until the database answers. */
  trip(): void {
    if (this.open || this.stopped) return;
    this.open = true;
    const failed = [...this.inFlight];
    this.inFlight.clear();
    for (const entry of failed) {
      entry.reject(new UnavailableError());
      // a statement still queued in the driver leaves its queue (and does not hold up the probe)
      cancel(entry.statement);
    }
    for (const listener of this.listeners) listener(true);
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
    clearTimeout(this.probeTimer);
  }

  /** Statements past their deadline fail with a timeout; the database is probed at once. */
  private sweep(): void {
    if (this.inFlight.size === 0) return;
    const now = Date.now();
    let late = false;
    for (const entry of this.inFlight) {
      if (entry.deadline > now) continue;
      this.inFlight.delete(entry);
      entry.reject(new StorageTimeoutError());
      cancel(entry.statement);
      late = true;
    }
    if (late && !this.open) void this.check();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => void this.check(), delayMs);
    this.probeTimer.unref();
  }

  /** A probe, or the one in flight: settles once the circuit knows whether the database answers. */
  private check(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.probing ??= this.probeOnce().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** Closes the circuit when the database answers in time, opens it (and probes again) otherwise. */
  private async probeOnce(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let reason = 'no answer in time';
    const ok = await Promise.race([
      this.probe().then(
        () => true,
        (e: unknown) => {
          reason = (e as Error)?.message ?? String(e);
          return false;
        },
      ),
      new Promise<boolean>(
        (resolve) => (timer = setTimeout(() => resolve(false), this.options.probeTimeoutMs)),
      ),
    ]);
    clearTimeout(timer);
    if (this.stopped) return;
    if (ok) {
      if (this.open) this.close();
    } else {
      if (!this.open)
        this.options.log?.(`storage unavailable (${reason}): failing requests at once until it answers`);
      this.trip();
      this.schedule(this.options.probeIntervalMs);
    }
  }

  private close(): void {
    this.open = false;
    this.options.log?.('storage is back');
    clearTimeout(this.probeTimer);
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const resolve of waiters) resolve();
    for (const listener of this.listeners) listener(false);
  }
}

function cancel(statement: Statement<unknown>): void {
  if (statement.state) return;
  try {
    statement.cancel?.();
  } catch {
    // nothing to cancel
  }
}
