/**
 * Several work queues behind one: a key always lands in the same one, so it is never handled twice at once,
 * while different keys are handled side by side. The collector's writes then reach storage together, where
 * they share a batch (kube runs 20 workers per queue for the same reason).
 */
import { WorkQueue } from '../watch/index.js';

export class Workers {
  private readonly queues: WorkQueue[];
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(count: number, handle: (key: string) => Promise<void>, log: (message: string) => void) {
    this.queues = Array.from({ length: count }, () => new WorkQueue(handle, log));
  }

  add(key: string): void {
    if (this.stopped) return;
    let h = 0;
    for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) >>> 0;
    this.queues[h % this.queues.length].add(key);
  }

  /** Adds the key again after `ms` (a write that lost a race: decide again once the cache has caught up). */
  later(key: string, ms: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(key);
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /** Resolves once nothing waits (timers set by `later` aside). */
  async idle(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.idle()));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all(this.queues.map((q) => q.stop()));
  }
}
