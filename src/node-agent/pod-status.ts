/**
 * The simulated runtime's answer for a pod (pure): init containers run to completion at once, then every
 * container runs (no process behind it) — except a container the runtime cannot create (a Localhost seccomp
 * profile missing or invalid), which stays Waiting with CreateContainerError, as the kubelet reports it. The
 * pod's phase and conditions follow the kubelet's rules for those container states.
 */
import { createHash } from 'node:crypto';
import { rfc3339 } from './times.js';

export interface RuntimeFacts {
  now: number;
  hostIP: string;
  podIP: string;
  /** container name → why it cannot be created */
  problems: Map<string, string>;
}

const containerId = (pod: any, name: string) =>
  `pgkube-sim://${createHash('sha256').update(`${pod.metadata.uid}/${name}`).digest('hex').slice(0, 40)}`;
const imageId = (image: string) => `pgkube-sim://${createHash('sha256').update(image).digest('hex')}`;

function waiting(c: any, reason: string, message?: string) {
  return {
    name: c.name,
    state: { waiting: message === undefined ? { reason } : { reason, message } },
    lastState: {},
    ready: false,
    restartCount: 0,
    image: c.image,
    imageID: '',
    started: false,
  };
}

function running(pod: any, c: any, since: string) {
  return {
    name: c.name,
    state: { running: { startedAt: since } },
    lastState: {},
    ready: true,
    restartCount: 0,
    image: c.image,
    imageID: imageId(c.image),
    containerID: containerId(pod, c.name),
    started: true,
  };
}

function completed(pod: any, c: any, at: string) {
  return {
    name: c.name,
    state: {
      terminated: {
        exitCode: 0,
        reason: 'Completed',
        startedAt: at,
        finishedAt: at,
        containerID: containerId(pod, c.name),
      },
    },
    lastState: {},
    ready: false,
    restartCount: 0,
    image: c.image,
    imageID: imageId(c.image),
    containerID: containerId(pod, c.name),
    started: false,
  };
}

const condition = (type: string, ok: boolean, at: string, reason?: string, message?: string) => ({
  type,
  status: ok ? 'True' : 'False',
  lastProbeTime: null,
  lastTransitionTime: at,
  ...(ok ? {} : { reason, message }),
});

/** The pod's status as the agent posts it; `previous` keeps start and transition times across postings. */
export function simulatedPodStatus(pod: any, facts: RuntimeFacts): any {
  const previous = pod.status ?? {};
  const at = rfc3339(facts.now);
  const startTime = previous.startTime ?? at;
  const keep = (name: string, list: any[] | undefined) => list?.find((s) => s.name === name);
  const init: any[] = pod.spec.initContainers ?? [];
  const blockedInit = init.find((c) => facts.problems.has(c.name));
  const initStatuses = init.map((c) => {
    if (c === blockedInit) return waiting(c, 'CreateContainerError', facts.problems.get(c.name));
    if (blockedInit && init.indexOf(c) > init.indexOf(blockedInit)) return waiting(c, 'PodInitializing');
    const before = keep(c.name, previous.initContainerStatuses);
    return before?.state?.terminated ? before : completed(pod, c, at);
  });
  const statuses = (pod.spec.containers ?? []).map((c: any) => {
    if (blockedInit) return waiting(c, 'PodInitializing');
    if (facts.problems.has(c.name)) return waiting(c, 'CreateContainerError', facts.problems.get(c.name));
    const before = keep(c.name, previous.containerStatuses);
    return running(pod, c, before?.state?.running?.startedAt ?? at);
  });
  const unready = statuses.filter((s: any) => !s.ready).map((s: any) => s.name);
  const transitioned = (type: string, ok: boolean) => {
    const before = (previous.conditions ?? []).find((c: any) => c.type === type);
    return before && (before.status === 'True') === ok ? before.lastTransitionTime : at;
  };
  const ready = unready.length === 0;
  const unreadyMessage = `containers with unready status: [${unready.join(' ')}]`;
  const conditions = [
    condition('PodReadyToStartContainers', true, transitioned('PodReadyToStartContainers', true)),
    blockedInit
      ? condition(
          'Initialized',
          false,
          transitioned('Initialized', false),
          'ContainersNotInitialized',
          `containers with incomplete status: [${blockedInit.name}]`,
        )
      : condition('Initialized', true, transitioned('Initialized', true)),
    condition('Ready', ready, transitioned('Ready', ready), 'ContainersNotReady', unreadyMessage),
    condition(
      'ContainersReady',
      ready,
      transitioned('ContainersReady', ready),
      'ContainersNotReady',
      unreadyMessage,
    ),
    condition('PodScheduled', true, transitioned('PodScheduled', true)),
  ];
  const hostNetwork = pod.spec.hostNetwork === true;
  const podIP = hostNetwork ? facts.hostIP : facts.podIP;
  return {
    ...previous,
    phase: ready ? 'Running' : 'Pending',
    conditions,
    hostIP: facts.hostIP,
    hostIPs: [{ ip: facts.hostIP }],
    podIP,
    podIPs: [{ ip: podIP }],
    startTime,
    ...(init.length > 0 ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: statuses,
  };
}

/** A pod address from the pod's uid, in 10.0.0.0/8: stable across restarts of the agent. */
export function podAddress(uid: string): string {
  const h = createHash('sha256').update(uid).digest();
  return `10.${h[0]}.${h[1]}.${Math.max(1, h[2] % 255)}`;
}
