/**
 * events.k8s.io/v1 Events as kube's recorders make them (client-go tools/events): named `<object>.<hex of the
 * time in nanoseconds>`, in the object's namespace (default for cluster-scoped objects), stamped with the
 * reporting controller and instance. Pure: no store, no clock of its own, so a node agent that POSTs events
 * itself builds them with the same code as the in-process recorder.
 */
import { isPlainObject, type KubeObject } from '../api/index.js';

export const EVENTS_API_VERSION = 'events.k8s.io/v1';

/** kube's limit on a note; a longer one would be refused, so it is cut (at a character boundary) */
export const NOTE_LIMIT_BYTES = 1024;

export type EventType = 'Normal' | 'Warning';

/** A core/v1 ObjectReference: what an event is about */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** Who reports: the controller (a qualified name, e.g. `default-scheduler`) and which instance of it */
export interface EventReporter {
  reportingController: string;
  reportingInstance: string;
}

export interface EventReport {
  regarding: ObjectReference;
  related?: ObjectReference;
  type: EventType;
  /** why, in one CamelCase word: Scheduled, FailedScheduling, NodeNotReady, ... */
  reason: string;
  /** what was done or failed: Binding, Scheduling, ... */
  action: string;
  /** for humans */
  note: string;
}

/** A reference to `obj`, as kube's reference.GetReference makes it (no fieldPath). */
export function referenceTo(obj: KubeObject, fieldPath?: string): ObjectReference {
  const ref: ObjectReference = {};
  const set = (key: keyof ObjectReference, value: unknown) => {
    if (typeof value === 'string' && value) ref[key] = value;
  };
  set('kind', obj.kind);
  set('namespace', obj.metadata.namespace);
  set('name', obj.metadata.name);
  set('uid', obj.metadata.uid);
  set('apiVersion', obj.apiVersion);
  set('resourceVersion', obj.metadata.resourceVersion);
  set('fieldPath', fieldPath);
  return ref;
}

/** A MicroTime (RFC 3339, six fractional digits, UTC) from nanoseconds since the epoch. */
export function microTime(nowNs: bigint): string {
  const ms = Number(nowNs / 1_000_000n);
  const micros = String((nowNs / 1000n) % 1_000_000n).padStart(6, '0');
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, `.${micros}Z`);
}

/** The time now in nanoseconds, for event names and times (distinct within a millisecond). */
export function nowNanos(): bigint {
  return BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
}

function cutNote(note: string): string {
  if (Buffer.byteLength(note) <= NOTE_LIMIT_BYTES) return note;
  let out = '';
  for (const ch of note) {
    if (Buffer.byteLength(out + ch) > NOTE_LIMIT_BYTES) break;
    out += ch;
  }
  return out;
}

/** A new events.k8s.io/v1 Event for `report`, at `nowNs`. */
export function buildEvent(reporter: EventReporter, report: EventReport, nowNs: bigint): KubeObject {
  const event: KubeObject = {
    apiVersion: EVENTS_API_VERSION,
    kind: 'Event',
    metadata: {
      name: `${report.regarding.name ?? ''}.${nowNs.toString(16)}`,
      namespace: report.regarding.namespace || 'default',
    },
    eventTime: microTime(nowNs),
    reportingController: reporter.reportingController,
    reportingInstance: reporter.reportingInstance,
    action: report.action,
    reason: report.reason,
    regarding: { ...report.regarding },
  };
  if (report.related) event.related = { ...report.related };
  event.note = cutNote(report.note);
  event.type = report.type;
  return event;
}

/** The series an event's repeat gives it: count 2 on the first repeat, then one more each time. */
export function withRepeat(event: KubeObject, nowNs: bigint): KubeObject {
  const count =
    isPlainObject(event.series) && typeof event.series.count === 'number' ? event.series.count : 1;
  return { ...event, series: { count: count + 1, lastObservedTime: microTime(nowNs) } };
}
