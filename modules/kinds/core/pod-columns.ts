/**
 * kubectl get pods: kube v1.32's pod printer. READY counts ready containers (sidecars included), STATUS is the
 * printer's reason (init progress, a waiting or terminated container's reason, Terminating, ...), RESTARTS
 * says how long ago the last one was.
 */
import type { PrinterColumn } from '../../registry/index.js';
import type { KubeObject } from '../../api/index.js';
import { timestampSince } from '../columns.js';
import { listAt, numAt, objAt, strAt, type Obj } from '../values.js';
import { records } from './pod-parts.js';

export interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

const isSidecar = (c: Obj | undefined): boolean => c?.restartPolicy === 'Always';

/** A terminated state's finish time, in ms; 0 when none. */
function lastTerminated(status: Obj): number {
  const terminated = objAt(objAt(status.lastState).terminated);
  const at = Date.parse(strAt(terminated.finishedAt));
  return Number.isNaN(at) ? 0 : at;
}

const conditionTrue = (status: Obj, type: string): boolean =>
  records(status.conditions).some((c) => c.type === type && c.status === 'True');

function terminatedReason(terminated: Obj, prefix: string): string {
  if (strAt(terminated.reason)) return prefix + strAt(terminated.reason);
  if (numAt(terminated.signal) !== 0) return `${prefix}Signal:${numAt(terminated.signal)}`;
  return `${prefix}ExitCode:${numAt(terminated.exitCode)}`;
}

export function podSummary(pod: KubeObject, nowMs: number): PodSummary {
  const spec = objAt(pod.spec);
  const status = objAt(pod.status);
  const initContainers = records(spec.initContainers);
  const initByName = new Map(initContainers.map((c) => [strAt(c.name), c]));
  const total = listAt(spec.containers).length + initContainers.filter(isSidecar).length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart = 0;
  let lastSidecarRestart = 0;
  const phase = strAt(status.phase);
  let reason = strAt(status.reason) || phase;
  if (records(status.conditions).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'))
    reason = 'SchedulingGated';

  let initializing = false;
  const initStatuses = records(status.initContainerStatuses);
  for (const [i, c] of initStatuses.entries()) {
    const sidecar = isSidecar(initByName.get(strAt(c.name)));
    restarts += numAt(c.restartCount);
    lastRestart = Math.max(lastRestart, lastTerminated(c));
    if (sidecar) {
      sidecarRestarts += numAt(c.restartCount);
      lastSidecarRestart = Math.max(lastSidecarRestart, lastTerminated(c));
    }
    const state = objAt(c.state);
    const terminated =
      state.terminated === undefined || state.terminated === null ? undefined : objAt(state.terminated);
    const waiting = objAt(state.waiting);
    if (terminated && numAt(terminated.exitCode) === 0) continue;
    if (sidecar && c.started === true) {
      if (c.ready === true) ready++;
      continue;
    }
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (strAt(waiting.reason) && waiting.reason !== 'PodInitializing')
      reason = `Init:${strAt(waiting.reason)}`;
    else reason = `Init:${i}/${initContainers.length}`;
    initializing = true;
    break;
  }

  if (!initializing || conditionTrue(status, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = records(status.containerStatuses);
    // kube walks them last to first, so the first container's reason wins
    for (const c of [...statuses].reverse()) {
      restarts += numAt(c.restartCount);
      lastRestart = Math.max(lastRestart, lastTerminated(c));
      const state = objAt(c.state);
      const waiting = objAt(state.waiting);
      const terminated =
        state.terminated === undefined || state.terminated === null ? undefined : objAt(state.terminated);
      if (strAt(waiting.reason)) reason = strAt(waiting.reason);
      else if (terminated) reason = terminatedReason(terminated, '');
      else if (c.ready === true && state.running !== undefined && state.running !== null) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning)
      reason = conditionTrue(status, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed')
    reason = 'Terminating';

  let restartsText = String(restarts);
  if (restarts !== 0 && lastRestart > 0)
    restartsText = `${restarts} (${timestampSince(new Date(lastRestart).toISOString(), nowMs)} ago)`;
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsText };
}

function readinessGates(pod: KubeObject): string {
  const gates = records(objAt(pod.spec).readinessGates);
  if (gates.length === 0) return '<none>';
  const conditions = records(objAt(pod.status).conditions);
  const passed = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True');
  return `${passed.length}/${gates.length}`;
}

const orNone = (s: string): string => s || '<none>';

export const podColumns: PrinterColumn[] = [
  {
    name: 'Ready',
    type: 'string',
    description: 'Ready containers of all containers (sidecar init containers included).',
    priority: 0,
    jsonPath: '.status.containerStatuses',
    cell: (obj, now) => podSummary(obj, now).ready,
  },
  {
    name: 'Status',
    type: 'string',
    description:
      'What the pod is doing: its phase, or why it is not running (Init:0/1, CrashLoopBackOff, ...).',
    priority: 0,
    jsonPath: '.status.phase',
    cell: (obj, now) => podSummary(obj, now).status,
  },
  {
    name: 'Restarts',
    type: 'string',
    description: 'Container restarts, and how long ago the last one was.',
    priority: 0,
    jsonPath: '.status.containerStatuses',
    cell: (obj, now) => podSummary(obj, now).restarts,
  },
];

export const podWideColumns: PrinterColumn[] = [
  {
    name: 'IP',
    type: 'string',
    description: "The pod's IP address.",
    priority: 1,
    jsonPath: '.status.podIP',
    cell: (obj) => orNone(strAt(objAt(listAt(objAt(obj.status).podIPs)[0]).ip)),
  },
  {
    name: 'Node',
    type: 'string',
    description: 'The node the pod is bound to.',
    priority: 1,
    jsonPath: '.spec.nodeName',
    cell: (obj) => orNone(strAt(objAt(obj.spec).nodeName)),
  },
  {
    name: 'Nominated Node',
    type: 'string',
    description: 'The node preemption made room on for the pod.',
    priority: 1,
    jsonPath: '.status.nominatedNodeName',
    cell: (obj) => orNone(strAt(objAt(obj.status).nominatedNodeName)),
  },
  {
    name: 'Readiness Gates',
    type: 'string',
    description: 'Readiness gates whose condition is True, of all.',
    priority: 1,
    jsonPath: '.spec.readinessGates',
    cell: readinessGates,
  },
];
