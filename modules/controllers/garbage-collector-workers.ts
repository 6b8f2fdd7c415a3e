/**
 * Several work queues behind one: a key always lands in the same one, so it is never handled twice at once,
 * while different keys are handled side by side. The collector's writes then reach storage together, where
 * they share a batch (kube runs 20 workers per queue for the same reason).
 */
import { WorkQueue } from '../watch/index.js';

export class Workers {
  private readonly queues: WorkQueue[];

  constructor(count: number, handle: (key: string) => Promise<void>, log: (message: string) => void) {
    this.queues = Array.from({ length: count }, () => new WorkQueue(handle, log));
  }

  /** the queue a key always lands in */
  private queueOf(key: string): WorkQueue {
    let h = 0;
    for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) >>> 0;
    return this.queues[h % this.queues.length];
  }

  add(key: string): void {
    this.queueOf(key).add(key);
  }

  /** Adds the key again after `ms` (a write that lost a race: decide again once the cache has caught up). */
  later(key: string, ms: number): void {
    this.queueOf(key).addAfter(key, ms);
  }

  /** Resolves once nothing waits (timers set by `later` aside). */
  async idle(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.idle()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.stop()));
  }
}
