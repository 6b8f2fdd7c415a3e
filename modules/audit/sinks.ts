/** Where events go: the log file (or stdout) and the database, each given the event serialized once. */

/** An audit.k8s.io/v1 Event as the sinks take it. */
export interface SerializedEvent {
  /** the event as JSON text on one line (no newline) */
  json: string;
  /** its stageTimestamp */
  at: string;
}

export interface AuditSink {
  /** one event; never throws, never waits */
  process(event: SerializedEvent): void;
  close?(): Promise<void> | void;
}

export interface LineWriter {
  write(text: string): unknown;
  close?(): void;
}

/** kube's log backend, json format: one event per line. */
export class LogSink implements AuditSink {
  constructor(
    private readonly out: LineWriter,
    private readonly onError: (events: number, error: unknown) => void,
  ) {}

  process(event: SerializedEvent): void {
    try {
      this.out.write(`${event.json}\n`);
    } catch (e) {
      this.onError(1, e);
    }
  }

  close(): void {
    this.out.close?.();
  }
}
