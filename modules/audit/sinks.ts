/**
 * Where events go: the log file (or stdout) as kube's JSON lines, and the database as columns. Each sink reads
 * the event at once (the request's audit goes on changing after it) and keeps what it needs.
 */
import { microTime, type ObjectReference } from './event.js';
import type { Level, Stage } from './policy.js';

/**
 * One stage's audit.k8s.io/v1 Event. Its nested objects come as their JSON text: the log writes it as it is,
 * the database keeps it in a text column, and what requests share (the user, the source IPs) is serialized once.
 */
export interface AuditEvent {
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  /** JSON of the authenticated user (`{}` when authentication failed) */
  user: string;
  /** JSON of the impersonated user */
  impersonatedUser?: string;
  /** JSON array */
  sourceIPs?: string;
  userAgent?: string;
  objectRef?: ObjectReference;
  /** responseStatus.code */
  code?: number;
  /** JSON of the responseStatus when it says more than its code (the Status of an error or of a deletion) */
  responseStatus?: string;
  /** JSON */
  requestObject?: string;
  /** JSON */
  responseObject?: string;
  /** microseconds since the epoch */
  receivedMicros: number;
  /** stageTimestamp: microseconds since the epoch */
  atMicros: number;
  /** JSON object, keys sorted */
  annotations?: string;
}

export interface AuditSink {
  /** one event; never throws, never waits */
  process(event: AuditEvent): void;
  close?(): Promise<void> | void;
}

/** The event as kube's log writes it: one line of JSON, its fields in kube's order. */
export function eventJson(e: AuditEvent): string {
  let json = `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"${e.level}","auditID":${JSON.stringify(e.auditID)},"stage":"${e.stage}","requestURI":${JSON.stringify(e.requestURI)},"verb":${JSON.stringify(e.verb)},"user":${e.user}`;
  if (e.impersonatedUser) json += `,"impersonatedUser":${e.impersonatedUser}`;
  if (e.sourceIPs) json += `,"sourceIPs":${e.sourceIPs}`;
  if (e.userAgent) json += `,"userAgent":${JSON.stringify(e.userAgent)}`;
  if (e.objectRef) json += `,"objectRef":${JSON.stringify(e.objectRef)}`;
  // an answer that was not a Status: the code alone
  if (e.responseStatus) json += `,"responseStatus":${e.responseStatus}`;
  else if (e.code !== undefined) json += `,"responseStatus":{"metadata":{},"code":${e.code}}`;
  if (e.requestObject !== undefined) json += `,"requestObject":${e.requestObject}`;
  if (e.responseObject !== undefined) json += `,"responseObject":${e.responseObject}`;
  json += `,"requestReceivedTimestamp":"${microTime(e.receivedMicros)}","stageTimestamp":"${microTime(e.atMicros)}"`;
  if (e.annotations) json += `,"annotations":${e.annotations}`;
  return `${json}}`;
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

  process(event: AuditEvent): void {
    try {
      this.out.write(`${eventJson(event)}\n`);
    } catch (e) {
      this.onError(1, e);
    }
  }

  close(): void {
    this.out.close?.();
  }
}
