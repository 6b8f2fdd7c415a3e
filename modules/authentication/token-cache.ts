/**
 * Answers about tokens kept for a while (kube's cached token authenticator): keyed by an HMAC of the token and
 * the audiences asked about, under a key made at start, so the cache never holds a token and its keys say
 * nothing about one. Concurrent questions about the same token share one answer in flight. Bounded: past
 * `maxEntries`, the oldest entry goes.
 */
import { createHmac, randomBytes } from 'node:crypto';

interface Entry<T> {
  value: T;
  expires: number;
}

export class TokenCache<T> {
  private readonly secret = randomBytes(32);
  private readonly entries = new Map<string, Entry<T>>();
  private readonly pending = new Map<string, Promise<T>>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  key(token: string, audiences: readonly string[] | undefined): string {
    const h = createHmac('sha256', this.secret);
    // lengths first, so no two (token, audiences) pairs hash the same input
    for (const a of audiences ?? []) h.update(`${a.length}:${a}`);
    h.update(`|${token.length}:${token}`);
    return h.digest('base64');
  }

  /**
   * The kept answer for `key`, else `ask()`'s, shared with concurrent callers; `ttl(answer)` says how long
   * to keep it (0: not at all, as for errors).
   */
  async get(key: string, ask: () => Promise<T>, ttl: (answer: T) => number): Promise<T> {
    const kept = this.entries.get(key);
    if (kept && kept.expires > this.now()) return kept.value;
    if (kept) this.entries.delete(key);
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const asking = ask()
      .then((value) => {
        const ms = ttl(value);
        if (ms > 0) this.keep(key, value, ms);
        return value;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, asking);
    return asking;
  }

  get size(): number {
    return this.entries.size;
  }

  private keep(key: string, value: T, ms: number): void {
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expires: this.now() + ms });
  }
}
