/**
 * kube's request timeouts (k8s.io/apiserver filters WithRequestDeadline and WithTimeoutForNonLongRunningRequests,
 * and the watch handler's timeout): a request that is not long-running answers 504 once its deadline passes
 * (`--request-timeout`, shortened by its own `?timeout=`); a watch ends after its `timeoutSeconds`, or after a
 * random time in [`--min-request-timeout`, 2 × that).
 */
import { ApiError, parseGoDuration } from '../api/index.js';

/** kube's NewTimeoutError("request did not complete within the allotted timeout", 0) */
export function requestTimedOut(): ApiError {
  return new ApiError(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', {});
}

const INVALID_TIMEOUT = 'invalid timeout specified in the request URL';

/** The time a watch stays open: its timeoutSeconds, else a random time in [min, 2·min) (0: no limit). */
export function watchTimeoutMs(
  timeoutSeconds: number,
  minRequestTimeoutS: number,
  random: () => number = Math.random,
): number {
  if (timeoutSeconds > 0) return timeoutSeconds * 1000;
  if (minRequestTimeoutS > 0) return minRequestTimeoutS * (random() + 1) * 1000;
  return Infinity;
}

interface Pending {
  at: number;
  expire: () => void;
}

/**
 * The deadlines of the requests being served. One coarse sweep (every `tickMs` while any is pending) finds
 * the expired ones, so a request costs a Set entry, not a timer: a deadline fires up to `tickMs` late.
 */
export class RequestTimeouts {
  private readonly pending = new Set<Pending>();
  private sweeper?: NodeJS.Timeout;
  /** a deadline was set since the last sweep: the sweep keeps running (no timer made and dropped per request) */
  private busy = false;

  constructor(
    /** --request-timeout */
    readonly maxMs: number,
    private readonly tickMs = Math.max(10, Math.min(100, maxMs / 10)),
  ) {}

  /** The request's own budget: its `?timeout=` when positive and shorter than --request-timeout (as kube). */
  budgetMs(timeout: string | undefined): number {
    if (timeout === undefined || timeout === '') return this.maxMs;
    let ms: number;
    try {
      ms = parseGoDuration(timeout);
    } catch (e) {
      throw ApiError.badRequest(`${INVALID_TIMEOUT} - ${(e as Error).message}`);
    }
    return ms > 0 && ms < this.maxMs ? ms : this.maxMs;
  }

  /** Calls `expire` once, unless the returned function is called within `ms`. */
  start(ms: number, expire: () => void): () => void {
    const entry: Pending = { at: performance.now() + ms, expire };
    this.pending.add(entry);
    this.busy = true;
    this.sweeper ??= setInterval(() => this.sweep(), this.tickMs).unref();
    return () => this.pending.delete(entry);
  }

  private sweep(): void {
    const now = performance.now();
    const wasBusy = this.busy;
    this.busy = false;
    for (const entry of this.pending) {
      if (entry.at > now) continue;
      this.pending.delete(entry);
      entry.expire();
    }
    if (this.pending.size === 0 && !wasBusy) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
