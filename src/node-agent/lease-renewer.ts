/**
 * The node's heartbeat Lease (kube-node-lease/<node>), renewed as the kubelet's lease controller renews it:
 * every quarter of its duration (10 s for 40 s) with a little jitter, by an update of the last Lease it holds;
 * when that fails, the Lease is read (or created, owned by the Node so it goes with it) again with an
 * exponential backoff from 200 ms up to 7 s, and the update retried.
 */
import type { ApiClient } from './api-client.js';
import { microTime } from './times.js';

export const LEASE_NAMESPACE = 'kube-node-lease';
const BACKOFF = { initialMs: 200, maxMs: 7_000 };
const JITTER = 0.04;

export interface LeaseHooks {
  /** each update of the Lease: how long it took and whether it was accepted */
  onRenew?(ms: number, ok: boolean): void;
}

export class LeaseRenewer {
  private latest: any;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private wake?: () => void;

  constructor(
    private readonly api: ApiClient,
    private readonly node: { name: string; uid?: () => string | undefined },
    private readonly durationSeconds: number,
    private readonly hooks: LeaseHooks = {},
  ) {}

  private get path(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases/${this.node.name}`;
  }

  get renewIntervalMs(): number {
    return this.durationSeconds * 250;
  }

  /** Renews now, then on the interval; `firstDelayMs` spreads many simulated nodes over the interval. */
  start(firstDelayMs = 0): void {
    const loop = async () => {
      if (this.stopped) return;
      await this.sync();
      if (this.stopped) return;
      this.timer = setTimeout(() => void loop(), this.renewIntervalMs * (1 + Math.random() * JITTER));
    };
    this.timer = setTimeout(() => void loop(), firstDelayMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wake?.();
  }

  /** One renewal, retried with backoff until it lands or the renewer stops. */
  async sync(): Promise<void> {
    let wait = BACKOFF.initialMs;
    while (!this.stopped) {
      if (this.latest === undefined) this.latest = await this.ensure();
      if (this.latest !== undefined && (await this.update())) return;
      this.latest = undefined;
      await this.sleep(wait);
      wait = Math.min(wait * 2, BACKOFF.maxMs);
    }
  }

  private async update(): Promise<boolean> {
    const lease = structuredClone(this.latest);
    lease.spec = { ...lease.spec, renewTime: microTime(), leaseDurationSeconds: this.durationSeconds };
    this.addOwner(lease);
    const started = performance.now();
    const answer = await this.api.request('PUT', this.path, lease).catch(() => undefined);
    const ok = answer?.status === 200;
    this.hooks.onRenew?.(performance.now() - started, ok);
    if (ok) this.latest = answer!.body;
    return ok;
  }

  /** The Lease as stored, created if missing; undefined when the server could not say. */
  private async ensure(): Promise<any> {
    const got = await this.api.request('GET', this.path).catch(() => undefined);
    if (got?.status === 200) return got.body;
    if (got?.status !== 404) return undefined;
    const lease: any = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.node.name, namespace: LEASE_NAMESPACE },
      spec: {
        holderIdentity: this.node.name,
        leaseDurationSeconds: this.durationSeconds,
        renewTime: microTime(),
      },
    };
    this.addOwner(lease);
    const created = await this.api
      .request('POST', `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases`, lease)
      .catch(() => undefined);
    return created?.status === 201 ? created.body : undefined;
  }

  /** the Node owns its Lease (the garbage collector removes it with the Node) */
  private addOwner(lease: any): void {
    const uid = this.node.uid?.();
    if (!uid || (lease.metadata.ownerReferences ?? []).length > 0) return;
    lease.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: this.node.name, uid }];
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }
}
