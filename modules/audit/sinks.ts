/** Where events go: the log file (or stdout) and the database, each given the event serialized once. */

export interface AuditSink {
  /** one event as a JSON text (no newline); never throws, never waits */
  process(line: string): void;
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

  process(line: string): void {
    try {
      this.out.write(`${line}\n`);
    } catch (e) {
      this.onError(1, e);
    }
  }

  close(): void {
    this.out.close?.();
  }
}
