/**
 * Starts the controllers `--controllers` enables once the server is up, and stops them at shutdown. Those
 * marked `leaderElected` run only while this replica holds the controllers' Lease.
 */
import type { Controller } from './controller.js';
import type { LeaderElector } from './leader-election.js';

export class ControllerRunner {
  private readonly started: Controller[] = [];
  private readonly leading: Controller[] = [];

  /** `elector` undefined: the leader-elected controllers run here as if this replica were the only one */
  constructor(
    private readonly controllers: readonly Controller[],
    private readonly enabled: ReadonlySet<string>,
    private readonly elector?: LeaderElector,
  ) {}

  async start(): Promise<void> {
    const enabled = this.controllers.filter((c) => this.enabled.has(c.name));
    for (const c of enabled.filter((c) => !c.leaderElected)) {
      await c.start();
      this.started.push(c);
    }
    const elected = enabled.filter((c) => c.leaderElected);
    if (elected.length === 0) return;
    if (!this.elector) return this.startLeading(elected);
    this.elector.start({
      onStartedLeading: () => this.startLeading(elected),
      onStoppedLeading: () => this.stopLeading(),
    });
  }

  async stop(): Promise<void> {
    // the elector stops the leader's controllers before it hands the Lease on
    await this.elector?.stop();
    await this.stopLeading();
    await Promise.all(this.started.splice(0).map((c) => c.stop()));
  }

  /** names of the controllers running here (a readiness detail, and tests) */
  running(): string[] {
    return [...this.started, ...this.leading].map((c) => c.name);
  }

  private async startLeading(controllers: Controller[]): Promise<void> {
    for (const c of controllers) {
      await c.start();
      this.leading.push(c);
    }
  }

  private async stopLeading(): Promise<void> {
    await Promise.all(this.leading.splice(0).map((c) => c.stop()));
  }
}
