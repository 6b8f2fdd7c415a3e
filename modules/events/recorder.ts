/**
 * The in-process event recorder for controllers (scheduler, node lifecycle, ...): `record` returns at once,
 * and the events are written in order through the generic store as events.k8s.io/v1 Events, as the system
 * user. Repeats update the earlier event's series (event-series.ts). A failed write is logged and dropped:
 * events are best-effort, as in kube. At most 1000 writes wait (kube's queue length); more are dropped.
 */
import { systemContext, type KubeObject } from '../api/index.js';
import type { GenericStore, ResourceDefinition } from '../registry/index.js';
import { buildEvent, nowNanos, type EventReport, type EventReporter } from './event-builder.js';
import { EventSeries, type Observation } from './event-series.js';

const MAX_QUEUED = 1000;

export interface RecorderOptions {
  log?: (message: string) => void;
  /** nanoseconds since the epoch (tests move time) */
  clock?: () => bigint;
}

export class EventRecorder {
  private readonly series = new EventSeries();
  private readonly log: (message: string) => void;
  private readonly clock: () => bigint;
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  /** `kind()`: the events.k8s.io Event kind (registered once the application has started) */
  constructor(
    private readonly generic: GenericStore,
    private readonly kind: () => ResourceDefinition,
    private readonly reporter: EventReporter,
    options: RecorderOptions = {},
  ) {
    this.log = options.log ?? (() => undefined);
    this.clock = options.clock ?? nowNanos;
  }

  /** Records `report` now; the write happens in the background, after the ones recorded before. */
  record(report: EventReport): void {
    if (this.queued >= MAX_QUEUED) {
      this.log(`event dropped, too many waiting: ${report.reason} ${report.regarding.name ?? ''}`);
      return;
    }
    const nowNs = this.clock();
    const observation = this.series.observe(
      buildEvent(this.reporter, report, nowNs),
      Number(nowNs / 1_000_000n),
      nowNs,
    );
    this.queued++;
    this.tail = this.tail.then(() =>
      this.write(observation)
        .catch((e: unknown) => this.log(`event not recorded: ${(e as Error).message}`))
        .finally(() => this.queued--),
    );
  }

  /** Resolves once every event recorded so far is written (or dropped). */
  flush(): Promise<void> {
    return this.tail;
  }

  private async write({ kind, event }: Observation): Promise<void> {
    const def = this.kind();
    const { namespace, name } = event.metadata as { namespace: string; name: string };
    if (kind === 'new') {
      await this.generic.create(systemContext(), def, namespace, structuredClone(event), {});
      return;
    }
    // only the series changes (kube patches it); an event deleted meanwhile is created again with it
    const series = event.series;
    await this.generic.update(
      systemContext(),
      def,
      namespace,
      name,
      (current: KubeObject | undefined) =>
        current ? { ...structuredClone(current), series } : structuredClone(event),
      {},
    );
  }
}
