/**
 * client-go's leader election over a coordination.k8s.io/v1 Lease, written through our own store: among the
 * replicas on one PostgreSQL, the one holding the Lease runs the leader-only controllers.
 *
 * The rules are client-go's. A candidate takes a Lease over only when its record has not changed for the
 * record's leaseDurationSeconds, measured on the candidate's own clock from when it first saw that record (so
 * clocks need not agree, only tick at the same rate). Every write is conditional on the resourceVersion read,
 * so two candidates cannot both win. The leader renews every retry period; a leader that has not renewed
 * within the renew deadline (shorter than the lease duration) stops its controllers before anyone else may
 * take over. On a clean stop the leader hands the Lease back (empty holder, 1 s duration) so another replica
 * takes over at once.
 */
import { ApiError, systemContext, type KubeObject } from '../api/index.js';
import type { GenericStore, ResourceDefinition } from '../registry/index.js';

export interface LeaderElectionOptions {
  /** the Lease: kube-controller-manager's is kube-system/kube-controller-manager */
  namespace: string;
  name: string;
  /** this replica, unique among the candidates (client-go: `<hostname>_<uuid>`) */
  identity: string;
  /** how long others wait on an unchanged record before taking over (client-go's default 15 s) */
  leaseDurationMs?: number;
  /** a leader that could not renew for this long steps down (10 s) */
  renewDeadlineMs?: number;
  /** how often the leader renews and candidates try (2 s) */
  retryPeriodMs?: number;
  /** the field manager of the Lease writes */
  manager?: string;
  log?: (message: string) => void;
  now?: () => number;
}

export interface LeaderCallbacks {
  onStartedLeading(): void | Promise<void>;
  onStoppedLeading(): void | Promise<void>;
}

/** client-go's LeaderElectionRecord, as the Lease spec carries it */
interface LeaseRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions: number;
}

/** metav1.MicroTime: RFC 3339 with six fractional digits */
export const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

function recordOf(lease: KubeObject): LeaseRecord {
  const spec = (lease.spec ?? {}) as Record<string, unknown>;
  return {
    holderIdentity: typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '',
    leaseDurationSeconds: typeof spec.leaseDurationSeconds === 'number' ? spec.leaseDurationSeconds : 0,
    acquireTime: typeof spec.acquireTime === 'string' ? spec.acquireTime : undefined,
    renewTime: typeof spec.renewTime === 'string' ? spec.renewTime : undefined,
    leaseTransitions: typeof spec.leaseTransitions === 'number' ? spec.leaseTransitions : 0,
  };
}

const specOf = (r: LeaseRecord): Record<string, unknown> => ({
  holderIdentity: r.holderIdentity,
  leaseDurationSeconds: r.leaseDurationSeconds,
  ...(r.acquireTime ? { acquireTime: r.acquireTime } : {}),
  ...(r.renewTime ? { renewTime: r.renewTime } : {}),
  leaseTransitions: r.leaseTransitions,
});

export class LeaderElector {
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  /** the Lease as last read or written: the next write is conditional on its resourceVersion */
  private lease?: KubeObject;
  private observed?: LeaseRecord;
  private observedRaw = '';
  /** when (on our clock) the observed record last changed */
  private observedAt = 0;
  private leading = false;
  private stopped = true;
  private running?: Promise<void>;
  private wake?: () => void;
  private callbacks?: LeaderCallbacks;

  constructor(
    private readonly generic: GenericStore,
    private readonly leases: () => ResourceDefinition,
    private readonly options: LeaderElectionOptions,
  ) {
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    if (this.renewDeadlineMs >= this.leaseDurationMs)
      throw new Error('leader election: the renew deadline must be shorter than the lease duration');
    if (this.retryPeriodMs >= this.renewDeadlineMs)
      throw new Error('leader election: the retry period must be shorter than the renew deadline');
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => undefined);
  }

  get identity(): string {
    return this.options.identity;
  }

  /** Whether this replica leads now (its controllers run). */
  isLeader(): boolean {
    return this.leading;
  }

  /** Campaigns until stopped: `onStartedLeading` on winning, `onStoppedLeading` on losing the Lease. */
  start(callbacks: LeaderCallbacks): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.callbacks = callbacks;
    this.running = this.campaign();
  }

  /** Stops campaigning; a leader stops its controllers, then hands the Lease back. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async campaign(): Promise<void> {
    while (!this.stopped) {
      if (await this.tryAcquireOrRenew().catch(() => false)) {
        if (this.stopped) break;
        this.leading = true;
        this.log(`${this.identity} became leader of ${this.leaseName()}`);
        await this.callbacks!.onStartedLeading();
        await this.renewWhileLeading();
        this.leading = false;
        await this.callbacks!.onStoppedLeading();
        if (this.stopped) await this.release();
        else this.log(`${this.identity} lost ${this.leaseName()}: not renewed within the renew deadline`);
        continue;
      }
      // client-go's jitter (factor 1.2) keeps candidates from asking in lockstep
      await this.sleep(this.retryPeriodMs * (1 + Math.random() * 1.2));
    }
    // stopped while only a candidate: a lease acquired just now is handed back too
    if (this.isRecordLeader()) await this.release();
  }

  /** Renews every retry period; returns when a renewal cycle missed its deadline, or on stop. */
  private async renewWhileLeading(): Promise<void> {
    while (!this.stopped) {
      await this.sleep(this.retryPeriodMs);
      if (this.stopped) return;
      const deadline = this.now() + this.renewDeadlineMs;
      let renewed = false;
      while (!this.stopped && !renewed && this.now() < deadline) {
        renewed = await this.beforeDeadline(this.tryAcquireOrRenew(), deadline);
        if (!renewed) await this.sleep(Math.min(this.retryPeriodMs, Math.max(0, deadline - this.now())));
      }
      if (!renewed && !this.stopped) return;
    }
  }

  private async beforeDeadline(attempt: Promise<boolean>, deadline: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - this.now()));
    });
    try {
      return await Promise.race([attempt.catch(() => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private isRecordLeader(): boolean {
    return this.observed?.holderIdentity === this.identity;
  }

  private leaseValid(now: number): boolean {
    return this.observedAt + (this.observed?.leaseDurationSeconds ?? 0) * 1000 > now;
  }

  private setObserved(record: LeaseRecord): void {
    this.observed = record;
    this.observedRaw = JSON.stringify(specOf(record));
    this.observedAt = this.now();
  }

  /** client-go's tryAcquireOrRenew: true when this replica holds the Lease after the call. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.now();
    const record: LeaseRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    // the leader's fast path: write over the Lease it wrote last
    if (this.isRecordLeader() && this.leaseValid(now) && this.lease) {
      record.acquireTime = this.observed!.acquireTime;
      record.leaseTransitions = this.observed!.leaseTransitions;
      if (await this.write(record)) return true;
    }
    const current = await this.read();
    if (!current) {
      if (!(await this.create(record))) return false;
      this.setObserved(record);
      return true;
    }
    this.lease = current;
    const seen = recordOf(current);
    if (JSON.stringify(specOf(seen)) !== this.observedRaw) this.setObserved(seen);
    if (seen.holderIdentity && this.leaseValid(now) && !this.isRecordLeader()) return false;
    if (this.isRecordLeader()) {
      record.acquireTime = seen.acquireTime;
      record.leaseTransitions = seen.leaseTransitions;
    } else record.leaseTransitions = seen.leaseTransitions + 1;
    return this.write(record);
  }

  /** client-go's release: an empty holder with a one-second lease, so the next candidate need not wait. */
  private async release(): Promise<void> {
    if (!this.isRecordLeader() || !this.lease) return;
    const now = microTime(this.now());
    await this.write({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: this.observed!.leaseTransitions,
    });
  }

  private leaseName(): string {
    return `${this.options.namespace}/${this.options.name}`;
  }

  private async read(): Promise<KubeObject | undefined> {
    try {
      return await this.generic.get(this.leases(), this.options.namespace, this.options.name);
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) return undefined;
      throw e;
    }
  }

  private async create(record: LeaseRecord): Promise<boolean> {
    try {
      this.lease = await this.generic.create(
        systemContext(),
        this.leases(),
        this.options.namespace,
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.options.name, namespace: this.options.namespace },
          spec: specOf(record),
        },
        { manager: this.options.manager },
      );
      return true;
    } catch (e) {
      this.log(`${this.leaseName()}: ${(e as Error).message}`);
      return false;
    }
  }

  /** A write at the resourceVersion last seen: another writer in between makes it fail (409). */
  private async write(record: LeaseRecord): Promise<boolean> {
    const base = this.lease!;
    try {
      const { object } = await this.generic.update(
        systemContext(),
        this.leases(),
        this.options.namespace,
        this.options.name,
        () => ({ ...structuredClone(base), spec: specOf(record) }),
        { manager: this.options.manager },
      );
      this.lease = object;
      this.setObserved(record);
      return true;
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 409))
        this.log(`${this.leaseName()}: ${(e as Error).message}`);
      return false;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
