/**
 * The audit step of the request pipeline (modules/endpoints/pipeline.ts): after authentication the policy picks
 * the request's level and stages (kube evaluates it for the authenticated user, before impersonation); the
 * pipeline then tells the request's audit what happens to it (impersonation, the authorization decision, the
 * answer) and each stage's event goes to every sink: RequestReceived at once, ResponseStarted when a
 * long-running request's headers are out, ResponseComplete (or Panic) when the response is over.
 */
import type { RequestInfo, UserInfo } from '../api/index.js';
import {
  eventUser,
  nowMicros,
  withoutManagedFields,
  type ObjectReference,
  type ResponseStatus,
} from './event.js';
import {
  auditAttributes,
  levelBelow,
  type Level,
  type PolicyEvaluator,
  type RequestAuditConfig,
  type Stage,
} from './policy.js';
import { completeObjectRef, requestBodyObject } from './request-object.js';
import type { AuditEvent, AuditSink } from './sinks.js';

/** What the pipeline knows of a request when its audit begins. */
export interface AuditedRequest {
  auditID: string;
  /** microseconds since the epoch, when the request arrived */
  receivedMicros: number;
  /** path and query as sent */
  requestURI: string;
  info: RequestInfo;
  /** the authenticated user; unset: authentication failed */
  user?: UserInfo;
  userAgent?: string;
  sourceIPs: readonly string[];
  contentType?: string;
  body?: Buffer;
}

/** plain counts, reported as kube's apiserver_audit_* metrics */
export interface AuditCounters {
  events: number;
  levels: Record<Level, number>;
  errors: Record<string, number>;
}

/** kube's long-running check: watch and proxy verbs, and the attach, exec, proxy, log, portforward subresources */
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
export function isLongRunning(info: RequestInfo): boolean {
  return (
    info.verb === 'watch' ||
    info.verb === 'proxy' ||
    (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource))
  );
}

const DECISION = 'authorization.k8s.io/decision';
const REASON = 'authorization.k8s.io/reason';

export class Auditor {
  readonly counters: AuditCounters = {
    events: 0,
    levels: { None: 0, Metadata: 0, Request: 0, RequestResponse: 0 },
    errors: {},
  };

  constructor(
    private readonly policy: PolicyEvaluator,
    private readonly sinks: readonly AuditSink[],
  ) {}

  /** Events lost by a sink (kube's apiserver_audit_error_total{plugin}). */
  lost(plugin: string, events: number): void {
    this.counters.errors[plugin] = (this.counters.errors[plugin] ?? 0) + events;
  }

  /** The request's audit, its RequestReceived event sent; undefined when the policy says None. */
  begin(r: AuditedRequest): RequestAudit | undefined {
    const audit = this.start(r);
    audit?.emit('RequestReceived');
    return audit;
  }

  /**
   * A request whose credentials were refused (kube's failed-authentication audit): no user, and one event, at
   * ResponseStarted, once the 401 is out.
   */
  failedAuthentication(r: AuditedRequest): RequestAudit | undefined {
    const audit = this.start({ ...r, user: undefined });
    audit?.onlyResponseStarted();
    return audit;
  }

  /** sends one event to every sink */
  send(event: AuditEvent): void {
    this.counters.events++;
    for (const sink of this.sinks) sink.process(event);
  }

  async close(): Promise<void> {
    for (const sink of this.sinks) await sink.close?.();
  }

  private start(r: AuditedRequest): RequestAudit | undefined {
    const config = this.policy.evaluate(auditAttributes(r.info, r.user));
    this.counters.levels[config.level]++;
    if (config.level === 'None') return undefined;
    return new RequestAudit(this, r, config);
  }
}

/** One request's audit: what its events say so far. */
export class RequestAudit {
  readonly longRunning: boolean;
  /** from the request's path: what RequestReceived names */
  private readonly requestRef?: ObjectReference;
  /** completed from a created or updated object's metadata */
  private objectRef?: ObjectReference;
  private impersonatedUser?: UserInfo;
  private responseStatus?: ResponseStatus;
  private requestObject?: unknown;
  private responseObject?: unknown;
  private annotations?: Record<string, string>;
  private startedSent = false;
  private done = false;
  private panic?: string;
  private single = false;
  private more?: Record<string, string>;
  private readonly wantsBody: boolean;
  private readonly completes: boolean;

  constructor(
    private readonly auditor: Auditor,
    private readonly r: AuditedRequest,
    private readonly config: RequestAuditConfig,
  ) {
    const { info } = r;
    this.longRunning = isLongRunning(info);
    if (info.isResourceRequest) {
      const ref: ObjectReference = { resource: info.resource };
      if (info.namespace) ref.namespace = info.namespace;
      if (info.name) ref.name = info.name;
      if (info.group) ref.apiGroup = info.group;
      if (info.version) ref.apiVersion = info.version;
      if (info.subresource) ref.subresource = info.subresource;
      this.requestRef = this.objectRef = ref;
    }
    // creates and updates tell their decoded object (requestDecoded); a patch or DeleteOptions is logged as sent
    this.wantsBody = !levelBelow(config.level, 'Request');
    this.completes = !!this.requestRef && (info.verb === 'create' || info.verb === 'update');
    if (this.wantsBody && !this.completes) this.keepRequestObject(requestBodyObject(r.body, r.contentType));
  }

  get level(): Level {
    return this.config.level;
  }

  impersonated(user: UserInfo): void {
    this.impersonatedUser = user;
  }

  /**
   * kube's authorization filter annotations: allow or forbid with the authorizers' reason; when an authorizer
   * failed and none allowed, only the reason `internal error`.
   */
  authorized(verdict: { decision: string; reason?: string; evaluationError?: string }): void {
    if (verdict.decision !== 'allow' && verdict.evaluationError) {
      this.annotate(REASON, 'internal error');
      return;
    }
    this.annotate(DECISION, verdict.decision === 'allow' ? 'allow' : 'forbid');
    this.annotate(REASON, verdict.reason ?? '');
  }

  annotate(key: string, value: string): void {
    (this.annotations ??= {})[key] = value;
  }

  /** annotations the request's later steps add (RequestContext.auditAnnotations), read at each event */
  annotateFrom(more: Record<string, string>): void {
    this.more = more;
  }

  /** kube's LogRequestObject: a write's decoded object completes objectRef and is the requestObject */
  requestDecoded(obj: unknown): void {
    if (this.completes && this.requestRef) this.objectRef = completeObjectRef(this.requestRef, obj);
    if (this.wantsBody) this.keepRequestObject(obj);
  }

  /** a copy as it is now: the store goes on to fill in the object it was given */
  private keepRequestObject(obj: unknown): void {
    if (obj === undefined) return;
    this.requestObject = structuredClone(this.config.omitManagedFields ? withoutManagedFields(obj) : obj);
  }

  /**
   * An object the response carries (kube's LogResponseObject): a Status gives the event's responseStatus, and at
   * RequestResponse the object is the event's responseObject.
   */
  responded(body: unknown): void {
    const b = body as Record<string, unknown> | undefined;
    if (b && b.kind === 'Status' && typeof b.code === 'number') {
      const s: ResponseStatus = { metadata: {} };
      if (b.status) s.status = String(b.status);
      if (b.message) s.message = String(b.message);
      if (b.reason) s.reason = String(b.reason);
      if (b.details) s.details = b.details;
      s.code = b.code;
      this.responseStatus = s;
    }
    if (this.config.level === 'RequestResponse')
      this.responseObject = this.config.omitManagedFields ? withoutManagedFields(body) : body;
  }

  /** An unexpected error (kube's panic): the last event is Panic, a 500. */
  panicked(error: unknown): void {
    this.panic = `APIServer panic'd: ${error instanceof Error ? error.message : String(error)}`;
  }

  /** A long-running request's headers are out: ResponseStarted (once). */
  started(code: number): void {
    if (!this.longRunning || this.startedSent || this.done) return;
    this.startedSent = true;
    this.setCode(code);
    this.emit('ResponseStarted');
  }

  /** The response is over: ResponseComplete, or Panic. */
  completed(code: number): void {
    if (this.done) return;
    if (this.single) {
      this.done = true;
      this.setCode(code);
      this.emit('ResponseStarted');
      return;
    }
    // kube fakes the ResponseStarted of a long-running request that never wrote its headers
    if (!this.panic) this.started(code);
    this.done = true;
    if (this.panic) {
      this.responseStatus = {
        metadata: {},
        status: 'Failure',
        message: this.panic,
        reason: 'InternalError',
        code: 500,
      };
      this.emit('Panic');
      return;
    }
    this.setCode(code);
    this.emit('ResponseComplete');
  }

  /** @internal failed authentication: one ResponseStarted event, no RequestReceived */
  onlyResponseStarted(): void {
    this.single = true;
  }

  /** @internal */
  emit(stage: Stage): void {
    if (this.config.omitStages.includes(stage)) return;
    this.auditor.send(this.event(stage));
  }

  private setCode(code: number): void {
    (this.responseStatus ??= { metadata: {} }).code = code;
  }

  /**
   * The audit.k8s.io/v1 Event of a stage. RequestReceived is sent before impersonation, authorization and
   * decoding, so it carries none of what they add (kube's handlers add it later too).
   */
  private event(stage: Stage): AuditEvent {
    const r = this.r;
    const received = stage === 'RequestReceived';
    const e: AuditEvent = {
      level: this.config.level,
      auditID: r.auditID,
      stage,
      requestURI: r.requestURI,
      verb: r.info.verb,
      user: userJson(r.user),
      sourceIPs: ipsJson(r.sourceIPs),
      userAgent: r.userAgent,
      objectRef: received ? this.requestRef : this.objectRef,
      receivedMicros: r.receivedMicros,
      atMicros: nowMicros(),
    };
    if (received) return e;
    if (this.impersonatedUser) e.impersonatedUser = JSON.stringify(eventUser(this.impersonatedUser));
    const status = this.responseStatus;
    if (status) {
      e.code = status.code;
      // a status of a code alone is the common case: written from the code where it goes
      if (
        status.status !== undefined ||
        status.message !== undefined ||
        status.reason !== undefined ||
        status.details !== undefined
      )
        e.responseStatus = JSON.stringify(status);
    }
    if (this.requestObject !== undefined) e.requestObject = JSON.stringify(this.requestObject);
    if (this.responseObject !== undefined) e.responseObject = JSON.stringify(this.responseObject);
    e.annotations = annotationsJson(this.more, this.annotations);
    return e;
  }
}

/**
 * The last user's and the last source IPs' JSON, reused: authenticators hand out one shared object per user,
 * and a busy client sends request after request from the same address.
 */
let lastUser: UserInfo | undefined;
let lastUserJson = '{}';
let lastIPs: readonly string[] = [];
let lastIPsJson: string | undefined;

function userJson(user: UserInfo | undefined): string {
  if (user !== lastUser) {
    lastUser = user;
    lastUserJson = JSON.stringify(eventUser(user));
  }
  return lastUserJson;
}

/** `[…]`, unless there are none */
function ipsJson(ips: readonly string[]): string | undefined {
  if (ips.length !== lastIPs.length || ips.some((ip, i) => ip !== lastIPs[i])) {
    lastIPs = ips;
    lastIPsJson = ips.length ? JSON.stringify(ips) : undefined;
  }
  return lastIPsJson;
}

/** the last annotations written, and their JSON: most requests are allowed for the same reason */
let lastKeys: string[] = [];
let lastValues: string[] = [];
let lastAnnotationsJson: string | undefined;

/**
 * `{…}`: the request context's annotations, the audit step's over them; keys sorted, as Go writes a map;
 * undefined when there are none
 */
function annotationsJson(
  more: Record<string, string> | undefined,
  own: Record<string, string> | undefined,
): string | undefined {
  const extra = more && !isEmpty(more) ? more : undefined;
  const all = extra && own ? { ...extra, ...own } : (extra ?? own);
  if (!all) return undefined;
  const keys = Object.keys(all).sort();
  if (keys.length === 0) return undefined;
  if (keys.length !== lastKeys.length || keys.some((k, i) => k !== lastKeys[i] || all[k] !== lastValues[i])) {
    lastKeys = keys;
    lastValues = keys.map((k) => all[k]);
    lastAnnotationsJson = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(all[k])}`).join(',')}}`;
  }
  return lastAnnotationsJson;
}

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}
