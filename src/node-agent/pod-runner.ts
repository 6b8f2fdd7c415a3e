/**
 * Runs the pods bound to one node on the simulated runtime: a new or changed pod gets the status its
 * containers would have (posted only when it differs from what is stored), a pod being deleted has its
 * containers "stopped" and is removed for good (grace period 0, only that pod: uid precondition), as the
 * kubelet finishes a graceful deletion. One pod is handled at a time per key; a newer version waits its turn.
 */
import { localhostProfileProblem } from './seccomp-profile.js';
import { podAddress, simulatedPodStatus } from './pod-status.js';
import type { PodOnNode, PodsOnNode } from '../../modules/checkpoint/index.js';
import { buildEvent, nowNanos, type EventReport } from '../../modules/events/index.js';
import type { ApiClient } from './api-client.js';

export interface PodRunnerOptions {
  api: ApiClient;
  node: string;
  hostIP: string;
  rootDir: string;
  /** Localhost seccomp profiles are checked on disk (a simulated node of `simulate-nodes` has none) */
  checkSeccomp: boolean;
  log?: (message: string) => void;
}

/** The seccomp profile a container runs with: its own, else the pod's. */
function effectiveSeccomp(pod: any, container: any): any {
  return container.securityContext?.seccompProfile ?? pod.spec.securityContext?.seccompProfile;
}

/** What decides whether a posted status is news: states and reasons, not times. */
export function podStatusFingerprint(status: any): string {
  const containers = (list: any[] | undefined) =>
    (list ?? []).map((s) => {
      const [state, detail] = Object.entries(s.state ?? {})[0] ?? ['', {}];
      return [s.name, state, (detail as any)?.reason, (detail as any)?.message, s.ready];
    });
  return JSON.stringify([
    status?.phase,
    status?.podIP,
    status?.hostIP,
    (status?.conditions ?? []).map((c: any) => [c.type, c.status, c.reason]),
    containers(status?.initContainerStatuses),
    containers(status?.containerStatuses),
  ]);
}

export class PodRunner implements PodsOnNode {
  /** the latest version of each pod bound here, as the watch delivered it */
  private readonly known = new Map<string, any>();
  /** per pod uid: the container states already told in events (`<name>:<state>`) */
  private readonly told = new Map<string, Set<string>>();
  private readonly busy = new Map<string, Promise<void>>();
  private readonly next = new Map<string, { pod: any; deleted: boolean }>();
  private stopped = false;

  constructor(private readonly o: PodRunnerOptions) {}

  handle(pod: any, deleted: boolean): void {
    if (this.stopped) return;
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (deleted) this.known.delete(key);
    else this.known.set(key, pod);
    this.next.set(key, { pod, deleted });
    if (!this.busy.has(key)) this.busy.set(key, this.drain(key));
  }

  stop(): void {
    this.stopped = true;
    this.next.clear();
  }

  /** The checkpoint endpoint's view: a pod's containers with the runtime ids their statuses carry. */
  find(namespace: string, name: string): PodOnNode | undefined {
    const pod = this.known.get(`${namespace}/${name}`);
    if (!pod) return undefined;
    const statuses: any[] = [
      ...(pod.status?.initContainerStatuses ?? []),
      ...(pod.status?.containerStatuses ?? []),
      ...(pod.status?.ephemeralContainerStatuses ?? []),
    ];
    const containers = [
      ...(pod.spec.initContainers ?? []),
      ...(pod.spec.containers ?? []),
      ...(pod.spec.ephemeralContainers ?? []),
    ].map((c: any) => {
      const status = statuses.find((s) => s.name === c.name);
      const id =
        typeof status?.containerID === 'string' ? status.containerID.replace(/^[^:]*:\/\//, '') : undefined;
      return { name: c.name, image: c.image, ...(id ? { id } : {}), state: status?.state };
    });
    return { uid: pod.metadata.uid, namespace, name, containers };
  }

  private async drain(key: string): Promise<void> {
    try {
      for (let item = this.next.get(key); item && !this.stopped; item = this.next.get(key)) {
        this.next.delete(key);
        await this.sync(item.pod, item.deleted).catch((e: Error) =>
          this.o.log?.(`pod ${key} on ${this.o.node}: ${e.message}`),
        );
      }
    } finally {
      this.busy.delete(key);
    }
  }

  /** The kubelet's events for containers that changed state: pulled, created, started; or failed to create. */
  private tell(pod: any, status: any): void {
    const told = this.told.get(pod.metadata.uid) ?? new Set<string>();
    this.told.set(pod.metadata.uid, told);
    const lists: [string, any[] | undefined][] = [
      ['spec.initContainers', status.initContainerStatuses],
      ['spec.containers', status.containerStatuses],
    ];
    for (const [field, list] of lists)
      for (const s of list ?? []) {
        const state =
          s.state?.waiting?.reason === 'CreateContainerError' ? 'failed' : s.state?.waiting ? '' : 'running';
        if (!state || told.has(`${s.name}:${state}`)) continue;
        told.add(`${s.name}:${state}`);
        if (state === 'failed') {
          this.record(pod, s.name, field, 'Warning', 'Failed', `Error: ${s.state.waiting.message ?? ''}`);
          continue;
        }
        this.record(
          pod,
          s.name,
          field,
          'Normal',
          'Pulled',
          `Container image ${JSON.stringify(s.image)} already present on machine`,
        );
        this.record(pod, s.name, field, 'Normal', 'Created', `Created container ${s.name}`);
        this.record(pod, s.name, field, 'Normal', 'Started', `Started container ${s.name}`);
      }
  }

  private record(
    pod: any,
    container: string,
    field: string,
    type: EventReport['type'],
    reason: string,
    note: string,
  ): void {
    const regarding = {
      kind: 'Pod',
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
      uid: pod.metadata.uid,
      apiVersion: 'v1',
      fieldPath: `${field}{${container}}`,
    };
    const event = buildEvent(
      { reportingController: 'kubelet', reportingInstance: this.o.node },
      { regarding, type, reason, action: reason, note },
      nowNanos(),
    );
    void this.o.api
      .request('POST', `/apis/events.k8s.io/v1/namespaces/${pod.metadata.namespace}/events`, event)
      .catch(() => undefined);
  }

  private podPath(pod: any): string {
    return `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`;
  }

  private async sync(pod: any, deleted: boolean): Promise<void> {
    if (deleted) {
      this.told.delete(pod.metadata.uid);
      return;
    }
    if (pod.metadata.deletionTimestamp) {
      for (const c of pod.spec.containers ?? [])
        if (this.told.get(pod.metadata.uid)?.has(`${c.name}:running`))
          this.record(pod, c.name, 'spec.containers', 'Normal', 'Killing', `Stopping container ${c.name}`);
      const gone = await this.o.api.request('DELETE', this.podPath(pod), {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.metadata.uid },
      });
      if (gone.status !== 200 && gone.status !== 404)
        this.o.log?.(
          `pod ${pod.metadata.namespace}/${pod.metadata.name} delete: ${gone.status} ${gone.body?.message ?? ''}`,
        );
      return;
    }
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
    const problems = new Map<string, string>();
    if (this.o.checkSeccomp)
      for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
        const profile = effectiveSeccomp(pod, c);
        if (profile?.type !== 'Localhost') continue;
        const problem = await localhostProfileProblem(this.o.rootDir, String(profile.localhostProfile ?? ''));
        if (problem) problems.set(c.name, problem);
      }
    const status = simulatedPodStatus(pod, {
      now: Date.now(),
      hostIP: this.o.hostIP,
      podIP: podAddress(pod.metadata.uid),
      problems,
    });
    if (podStatusFingerprint(status) === podStatusFingerprint(pod.status)) return;
    const answer = await this.o.api.request(
      'PATCH',
      `${this.podPath(pod)}/status`,
      { metadata: { uid: pod.metadata.uid }, status },
      'application/merge-patch+json',
    );
    if (answer.status === 200) this.tell(pod, status);
    if (answer.status !== 200 && answer.status !== 404)
      this.o.log?.(
        `pod ${pod.metadata.namespace}/${pod.metadata.name} status: ${answer.status} ${answer.body?.message ?? ''}`,
      );
  }
}
