/** Starts the controllers `--controllers` enables once the server is up, and stops them at shutdown. */
import type { Controller } from './controller.js';

export class ControllerRunner {
  private readonly started: Controller[] = [];

  constructor(
    private readonly controllers: readonly Controller[],
    private readonly enabled: ReadonlySet<string>,
  ) {}

  async start(): Promise<void> {
    for (const c of this.controllers) {
      if (!this.enabled.has(c.name)) continue;
      await c.start();
      this.started.push(c);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.started.splice(0).map((c) => c.stop()));
  }

  /** names of the controllers running (a readiness detail, and tests) */
  running(): string[] {
    return this.started.map((c) => c.name);
  }
}
