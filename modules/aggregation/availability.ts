/**
 * kube's availability controller for remote APIServices: their `Available` condition says whether requests can
 * reach the backend now (reasons ServiceNotFound, ServicePortError, EndpointsNotFound, MissingEndpoints,
 * FailedDiscoveryCheck; Passed). Checked when the APIService, its Service or its endpoints change, when a
 * proxied request could not reach the backend, and periodically: every 30 s, every 5 s while unavailable (so
 * a backend coming back is noticed soon). Every replica checks; a write happens only when the condition
 * changes.
 */
import { isDeepStrictEqual } from 'node:util';
import { nowTimestamp } from '../api/index.js';
import {
  apiServiceCondition,
  AVAILABLE_CONDITION,
  setApiServiceCondition,
  type APIService,
  type APIServiceCondition,
} from '../kinds/index.js';
import type { GenericStore, Registry } from '../registry/index.js';
import { WorkQueue } from '../watch/index.js';
import { DiscoveryCheck } from './discovery-check.js';
import { updateApiService } from './apiservice-writes.js';
import { RemoteApiServices } from './remote-apiservices.js';

export interface AvailabilityTiming {
  /** re-check of an available backend */
  availableMs: number;
  /** re-check of an unavailable one */
  unavailableMs: number;
}

const TIMING: AvailabilityTiming = { availableMs: 30_000, unavailableMs: 5_000 };

export class AvailabilityController {
  private readonly queue: WorkQueue;
  private readonly probe: DiscoveryCheck;
  private unsubscribe?: () => void;
  private timer?: NodeJS.Timeout;
  private readonly lastCheck = new Map<string, number>();

  constructor(
    private readonly remote: RemoteApiServices,
    private readonly registry: Registry,
    private readonly generic: GenericStore,
    log: (message: string) => void,
    private readonly timing: AvailabilityTiming = TIMING,
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), log);
    this.probe = new DiscoveryCheck(remote.clientCertificate);
  }

  start(): void {
    this.unsubscribe = this.remote.onChange((names) => names.forEach((n) => this.queue.add(n)));
    for (const a of this.remote.list()) this.queue.add(a.metadata.name!);
    this.timer = setInterval(() => this.due(), 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe?.();
    await this.queue.stop();
    this.probe.close();
  }

  /** A request could not reach the backend: look again now rather than at the next period. */
  recheck(name: string): void {
    this.queue.add(name);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  private due(): void {
    const now = Date.now();
    for (const a of this.remote.list()) {
      const name = a.metadata.name!;
      const period = RemoteApiServices.available(a) ? this.timing.availableMs : this.timing.unavailableMs;
      if (now - (this.lastCheck.get(name) ?? 0) >= period) this.queue.add(name);
    }
  }

  /** The condition the backend earns now. */
  async condition(apiService: APIService): Promise<APIServiceCondition> {
    const resolved = this.remote.resolve(apiService);
    const condition = (status: string, reason: string, message: string): APIServiceCondition => ({
      type: AVAILABLE_CONDITION,
      status,
      lastTransitionTime: nowTimestamp(),
      reason,
      message,
    });
    if (!resolved.ok) return condition('False', resolved.reason, resolved.message);
    const failure = await this.probe.check(apiService, resolved);
    return failure
      ? condition('False', 'FailedDiscoveryCheck', failure)
      : condition('True', 'Passed', 'all checks passed');
  }

  private async sync(name: string): Promise<void> {
    this.lastCheck.set(name, Date.now());
    const apiService = this.remote.get(name);
    if (!apiService) {
      this.lastCheck.delete(name);
      return;
    }
    const want = await this.condition(apiService);
    if (sameCondition(apiServiceCondition(apiService, AVAILABLE_CONDITION), want)) return;
    const kind = this.registry.storedKind('apiregistration.k8s.io', 'apiservices')!;
    await updateApiService(
      this.generic,
      kind,
      name,
      (stored) => {
        const next = structuredClone(stored);
        setApiServiceCondition(next, want);
        return next;
      },
      'status',
    );
  }
}

function sameCondition(have: APIServiceCondition | undefined, want: APIServiceCondition): boolean {
  if (!have) return false;
  const { lastTransitionTime: _a, ...h } = have;
  const { lastTransitionTime: _b, ...w } = want;
  return isDeepStrictEqual(h, w);
}
