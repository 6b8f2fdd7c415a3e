/**
 * One node: registers its Node, keeps its Lease renewed, posts its status on change or every report period,
 * and runs the pods bound to it on the simulated runtime. `pgkube node-agent` runs one; `simulate-nodes` runs
 * many in one process over one client and one pod watch.
 */
import type { ApiClient } from './api-client.js';
import type { HostFigures } from './host-figures.js';
import { LeaseRenewer, type LeaseHooks } from './lease-renewer.js';
import {
  nodeStatus,
  nodeToRegister,
  stampConditions,
  statusFingerprint,
  type EvictionThresholds,
  type NodeIdentity,
} from './node-status.js';
import type { PodFeed } from './pod-feed.js';
import { PodRunner, type PodRunnerOptions } from './pod-runner.js';

export interface AgentOptions {
  api: ApiClient;
  identity: NodeIdentity;
  leaseDurationSeconds: number;
  /** how often the status is computed (nodeStatusUpdateFrequency) */
  statusUpdateMs: number;
  /** how often an unchanged status is posted anyway (nodeStatusReportFrequency) */
  statusReportMs: number;
  evictionHard: EvictionThresholds;
  host: () => Promise<HostFigures>;
  pods: PodFeed;
  runtime: Omit<PodRunnerOptions, 'api' | 'node' | 'hostIP'>;
  hooks?: LeaseHooks & { onStatus?(ms: number, ok: boolean): void };
  log?: (message: string) => void;
}

const REGISTER_BACKOFF = { initialMs: 100, maxMs: 7_000 };

export class NodeAgent {
  private uid?: string;
  private readonly lease: LeaseRenewer;
  private readonly runner: PodRunner;
  private stopped = false;
  private statusTimer?: NodeJS.Timeout;
  private posted?: { fingerprint: string; at: number; conditions: any[] };

  constructor(private readonly o: AgentOptions) {
    this.lease = new LeaseRenewer(
      o.api,
      { name: o.identity.name, uid: () => this.uid },
      o.leaseDurationSeconds,
      o.hooks,
    );
    this.runner = new PodRunner({
      ...o.runtime,
      api: o.api,
      node: o.identity.name,
      hostIP: o.identity.internalIP,
    });
  }

  /** the pods this node runs, for its HTTPS API */
  get pods(): PodRunner {
    return this.runner;
  }

  get name(): string {
    return this.o.identity.name;
  }

  /** Registers (retrying until the server takes it), then starts the heartbeats and the pods. */
  async start(firstDelayMs = 0): Promise<void> {
    await this.register();
    if (this.stopped) return;
    this.lease.start(firstDelayMs);
    this.statusTimer = setTimeout(() => void this.statusLoop(), firstDelayMs + this.o.statusUpdateMs);
    this.o.pods.subscribe(this.name, (pod, deleted) => this.runner.handle(pod, deleted));
  }

  stop(): void {
    this.stopped = true;
    this.lease.stop();
    clearTimeout(this.statusTimer);
    this.o.pods.unsubscribe(this.name);
    this.runner.stop();
  }

  private async status(): Promise<any> {
    return nodeStatus(await this.o.host(), this.o.identity, this.o.evictionHard, []);
  }

  private async register(): Promise<void> {
    let wait = REGISTER_BACKOFF.initialMs;
    while (!this.stopped) {
      const status = await this.status();
      status.conditions = stampConditions(status.conditions, undefined, Date.now());
      const node = nodeToRegister(status, this.o.identity);
      const created = await this.o.api.request('POST', '/api/v1/nodes', node).catch(() => undefined);
      if (created?.status === 201) {
        this.uid = created.body.metadata.uid;
        this.posted = {
          fingerprint: statusFingerprint(status),
          at: Date.now(),
          conditions: status.conditions,
        };
        // the server keeps what it was given at create only where kube would: post the status as the kubelet does
        await this.postStatus(status);
        return;
      }
      if (created?.status === 409) {
        const existing = await this.o.api.request('GET', `/api/v1/nodes/${this.name}`).catch(() => undefined);
        if (existing?.status === 200) {
          this.uid = existing.body.metadata.uid;
          await this.postStatus(status, existing.body.status?.conditions);
          return;
        }
      } else if (created && created.status >= 400 && created.status < 500 && created.status !== 429) {
        this.o.log?.(
          `node ${this.name}: registration refused (${created.status}): ${created.body?.message ?? ''}`,
        );
      }
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, REGISTER_BACKOFF.maxMs);
    }
  }

  private async statusLoop(): Promise<void> {
    if (this.stopped) return;
    try {
      const status = await this.status();
      const due = !this.posted || Date.now() - this.posted.at >= this.o.statusReportMs;
      if (due || statusFingerprint(status) !== this.posted?.fingerprint) await this.postStatus(status);
    } finally {
      if (!this.stopped) this.statusTimer = setTimeout(() => void this.statusLoop(), this.o.statusUpdateMs);
    }
  }

  private async postStatus(status: any, previousConditions = this.posted?.conditions): Promise<void> {
    const now = Date.now();
    const stamped = { ...status, conditions: stampConditions(status.conditions, previousConditions, now) };
    const started = performance.now();
    const answer = await this.o.api
      .request(
        'PATCH',
        `/api/v1/nodes/${this.name}/status`,
        { status: stamped },
        'application/merge-patch+json',
      )
      .catch(() => undefined);
    this.o.hooks?.onStatus?.(performance.now() - started, answer?.status === 200);
    if (answer?.status === 200) {
      this.uid = answer.body.metadata.uid;
      this.posted = { fingerprint: statusFingerprint(status), at: now, conditions: stamped.conditions };
    } else if (answer?.status === 404 && !this.stopped) {
      // the Node was deleted under us: register it again, as a restarted kubelet would
      await this.register();
    }
  }
}
