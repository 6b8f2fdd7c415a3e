/**
 * Stops a controller fighting another writer over one object. Controllers here run on every replica (there
 * is no leader election yet): replicas that publish different values (each its own generated CA, say) would
 * rewrite each other's for ever. A key rewritten `limit` times within `windowMs` is left alone for `pauseMs`,
 * once, with a warning; an edit by a person is still put right at once.
 */
export class FlapGuard {
  private readonly writes = new Map<string, { times: number[]; pausedUntil: number }>();

  constructor(
    private readonly warn: (message: string) => void,
    private readonly limit = 3,
    private readonly windowMs = 60_000,
    private readonly pauseMs = 300_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `key` may be rewritten now; counts the rewrite when it may. */
  allow(key: string, why: string): boolean {
    const now = this.now();
    const entry = this.writes.get(key) ?? { times: [], pausedUntil: 0 };
    this.writes.set(key, entry);
    if (now < entry.pausedUntil) return false;
    entry.times = entry.times.filter((t) => now - t < this.windowMs);
    if (entry.times.length >= this.limit) {
      entry.pausedUntil = now + this.pauseMs;
      entry.times = [];
      this.warn(
        `${key}: rewritten ${this.limit} times within ${this.windowMs / 1000}s; ${why}; left alone for ${this.pauseMs / 1000}s`,
      );
      return false;
    }
    entry.times.push(now);
    return true;
  }

  forget(key: string): void {
    this.writes.delete(key);
  }
}
