/**
 * kube's work queue, small: keys are deduplicated while they wait, handled one at a time, and a key whose
 * handler failed comes back after an exponential backoff (5 ms doubling to 30 s, as client-go's default).
 */
export class WorkQueue {
  private readonly waiting = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly handle: (key: string) => Promise<void>,
    private readonly log: (message: string) => void,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    this.waiting.add(key);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  /** Adds `key` once `ms` have passed (work that waits on something no event announces). */
  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(key);
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /** Resolves once no key is waiting or being handled (tests, and a controller's own stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.waiting.clear();
    await this.idle();
  }

  private async drain(): Promise<void> {
    while (!this.stopped && this.waiting.size > 0) {
      const key = this.waiting.values().next().value as string;
      this.waiting.delete(key);
      try {
        await this.handle(key);
        this.failures.delete(key);
      } catch (e) {
        if (this.stopped) return;
        const n = (this.failures.get(key) ?? 0) + 1;
        this.failures.set(key, n);
        this.log(`${key}: ${(e as Error).message}; retrying`);
        this.addAfter(key, Math.min(5 * 2 ** (n - 1), 30_000));
      }
    }
  }
}
