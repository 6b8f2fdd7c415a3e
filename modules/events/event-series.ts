/**
 * Repeats become a series, as kube's event broadcaster does it: an event that repeats an earlier one (same
 * regarding and related object, reason, action and reporting controller; kube leaves the note and type out of
 * the comparison) within six minutes of that one's last observation is not written anew: the earlier event's
 * `series` counts it (2 on the first repeat) and records when. Later than that, the next one starts afresh.
 * Pure: the caller writes what `observe` returns.
 */
import { isPlainObject, type KubeObject } from '../api/index.js';
import { withRepeat } from './event-builder.js';

/** kube's finishTime: a series not observed for this long is over */
export const SERIES_WINDOW_MS = 6 * 60_000;

export type Observation =
  /** write this new event (create) */
  | { kind: 'new'; event: KubeObject }
  /** this earlier event repeated: write its new series (update), or create it again if it is gone */
  | { kind: 'repeat'; event: KubeObject };

interface Seen {
  event: KubeObject;
  lastMs: number;
}

function keyOf(event: KubeObject): string {
  const ref = (v: unknown) => (isPlainObject(v) ? v : {});
  const fields = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
  const refKey = (v: unknown) => fields.map((f) => ref(v)[f] ?? '');
  return JSON.stringify([
    event.action ?? '',
    event.reason ?? '',
    event.reportingController ?? '',
    refKey(event.regarding),
    refKey(event.related),
  ]);
}

export class EventSeries {
  private readonly seen = new Map<string, Seen>();
  private sweptMs = 0;

  constructor(private readonly windowMs = SERIES_WINDOW_MS) {}

  /** What to write for `event` (a freshly built one) observed at `nowMs`, with `nowNs` for its series time. */
  observe(event: KubeObject, nowMs: number, nowNs: bigint): Observation {
    this.sweep(nowMs);
    const key = keyOf(event);
    const earlier = this.seen.get(key);
    if (earlier && nowMs - earlier.lastMs <= this.windowMs) {
      const repeated = withRepeat(earlier.event, nowNs);
      this.seen.set(key, { event: repeated, lastMs: nowMs });
      return { kind: 'repeat', event: repeated };
    }
    this.seen.set(key, { event, lastMs: nowMs });
    return { kind: 'new', event };
  }

  /** how many events are remembered (tests) */
  get size(): number {
    return this.seen.size;
  }

  /** forgets the series that are over, at most once a window */
  private sweep(nowMs: number): void {
    if (nowMs - this.sweptMs < this.windowMs) return;
    this.sweptMs = nowMs;
    for (const [key, s] of this.seen) if (nowMs - s.lastMs > this.windowMs) this.seen.delete(key);
  }
}
