/**
 * kube's health endpoints: /healthz (deprecated), /livez and /readyz, each a list of named checks; `?verbose`
 * lists them, `?exclude=<name>` skips some, `/<path>/<name>` runs one. Machines read the status code only.
 */
export interface HealthCheck {
  name: string;
  /** resolves when healthy; rejects (the reason is withheld from the response) when not */
  check(): Promise<void>;
}

export interface HealthAnswer {
  status: number;
  body: string;
}

export class HealthEndpoint {
  constructor(
    /** healthz, livez or readyz */
    readonly name: string,
    private readonly checks: HealthCheck[],
  ) {}

  /** All checks (less excluded ones). */
  async all(verbose: boolean, exclude: string[]): Promise<HealthAnswer> {
    const excluded = new Set(exclude);
    const lines: string[] = [];
    let failed = false;
    for (const c of this.checks) {
      if (excluded.has(c.name)) {
        lines.push(`[+]${c.name} excluded: ok`);
        excluded.delete(c.name);
        continue;
      }
      const ok = await c.check().then(
        () => true,
        () => false,
      );
      failed ||= !ok;
      lines.push(ok ? `[+]${c.name} ok` : `[-]${c.name} failed: reason withheld`);
    }
    if (excluded.size > 0) {
      lines.push(
        `warn: some health checks cannot be excluded: no matches for ${[...excluded].map((e) => `"${e}"`).join(',')}`,
      );
    }
    if (failed) return { status: 500, body: `${lines.join('\n')}\n${this.name} check failed\n` };
    if (!verbose) return { status: 200, body: 'ok' };
    return { status: 200, body: `${lines.join('\n')}\n${this.name} check passed\n` };
  }

  /** One check by name; undefined when there is none of that name. */
  async one(name: string): Promise<HealthAnswer | undefined> {
    const c = this.checks.find((x) => x.name === name);
    if (!c) return undefined;
    return c.check().then(
      () => ({ status: 200, body: 'ok' }),
      (e: unknown) => ({
        status: 500,
        body: `internal server error: ${(e as Error)?.message ?? 'check failed'}\n`,
      }),
    );
  }
}

/** A check that fails once `timeoutMs` passes without an answer. */
export function withTimeout(name: string, timeoutMs: number, run: () => Promise<unknown>): HealthCheck {
  return {
    name,
    check: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} timed out`)), timeoutMs);
        run().then(
          () => {
            clearTimeout(timer);
            resolve();
          },
          (e) => {
            clearTimeout(timer);
            reject(e);
          },
        );
      }),
  };
}

export const always = (name: string): HealthCheck => ({ name, check: async () => undefined });

/** A check that holds while `ok()` returns true; `why` names what is missing. */
export const flag = (name: string, ok: () => boolean, why: string): HealthCheck => ({
  name,
  check: async () => {
    if (!ok()) throw new Error(why);
  },
});

/**
 * kube's --livez-grace-period for a start-up check: until `graceMs` after this is called (at server start) the
 * check passes whatever its state, so a slow start is not taken for a dead server; afterwards it tells the truth.
 */
export function withGracePeriod(
  check: HealthCheck,
  graceMs: number,
  now: () => number = Date.now,
): HealthCheck {
  const until = now() + graceMs;
  return { name: check.name, check: () => (now() < until ? Promise.resolve() : check.check()) };
}
