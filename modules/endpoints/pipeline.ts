/**
 * The one request pipeline (ARCHITECTURE.md, "A request's path"), read top to bottom in `handle`: request info →
 * upstream (sidecar mode: what this server does not serve is forwarded before authentication) → authenticate →
 * audit (the policy's level; its events follow the request to its end) → impersonate → authorize → route (another server, non-resource paths, resources) → decode → admission →
 * storage → encode (the last four in the verb handlers and the generic store). Every failure on the way
 * leaves as a Status.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { Duplex } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiError,
  parseRequestInfo,
  requestContext,
  type RequestContext,
  type RequestInfo,
  type UserInfo,
} from '../api/index.js';
import {
  impersonationHeaders,
  peerCertificates,
  type AuthenticationRequest,
  type AuthenticatorUnion,
  type CredentialHeaders,
  type Impersonation,
} from '../authentication/index.js';
import { requestAttributes, type AuthorizerChain } from '../authorization/index.js';
import {
  nowMicros,
  sourceIPs,
  type AuditedRequest,
  type Auditor,
  type RequestAudit,
} from '../audit/index.js';
import {
  acceptsGzip,
  negotiateOutput,
  partialObjectMetadataSchema,
  type Conversion,
} from '../codec/index.js';
import type { Registry, ResourceDefinition, Schema } from '../registry/index.js';
import { requestLabels, type ApiMetrics } from '../metrics/index.js';
import { deprecationOf, FeatureGates, notServedError, type DeprecatedApis } from '../versioning/index.js';
import { observeAudit } from './audit-hooks.js';
import { hasProtobufForm } from './decode.js';
import type { InflightLimiter, InflightSlot } from './inflight.js';
import type { NonResourceHandlers } from './non-resource.js';
import type { Query } from './request.js';
import type { ResourceHandlers } from './resources.js';
import { addWarnings, jsonOutput, sendError, toApiError, writeStatus, type Output } from './respond.js';
import { requestTimedOut, type RequestTimeouts } from './timeout.js';

/**
 * Requests served elsewhere (an aggregated API server, the upstream cluster in sidecar mode): asked after
 * authorization, before this server's own routes.
 */
export interface Delegate {
  handles(info: RequestInfo): boolean;
  handle(ctx: RequestContext, req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  /** an upgrade request (exec, attach, port-forward) it handles: the socket is its own from now on */
  upgrade?(ctx: RequestContext, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
}

/** Nest token of the Delegate[] a mode adds (the aggregation layer's proxy); none: everything is served here */
export const DELEGATES = Symbol('Delegates');

/**
 * Sidecar mode (modules/sidecar): the upstream cluster serves every request this server does not. Asked right
 * after RequestInfo, before authentication, as the upstream judges its callers itself: with their own
 * credentials ('caller'), or, for a client certificate only this server sees, as the user this server
 * authenticated ('user': the sidecar's own credentials and Impersonate-* headers).
 */
export interface UpstreamForwarding {
  /** its own groups, the merged discovery and OpenAPI, health and metrics */
  servesLocally(info: RequestInfo): boolean;
  /** how a request not served here goes */
  forwardsAs(raw: IncomingMessage | Http2ServerRequest): 'caller' | 'user';
  /** `user` unset: as the caller sent it */
  forward(req: FastifyRequest, reply: FastifyReply, user?: UserInfo): Promise<void>;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, user?: UserInfo): Promise<void>;
}

/** Nest token of the UpstreamForwarding of sidecar mode; none: not a sidecar */
export const UPSTREAM = Symbol('Upstream');

/** Table for every read; PartialObjectMetadata for one object (get, watch events), ...List for lists. */
function conversionServes(verb: string, c: Conversion): boolean {
  if (c.as === 'Table') return verb === 'get' || verb === 'list' || verb === 'watch';
  if (c.as === 'PartialObjectMetadata') return verb === 'get' || verb === 'watch';
  return verb === 'list';
}

/** The message one object of the answer is written as: the kind's own, or PartialObjectMetadata. */
function protobufSchema(def: ResourceDefinition, conversion: Conversion | undefined): Schema {
  return conversion ? partialObjectMetadataSchema : def.schema;
}

function flatQuery(raw: unknown): Query {
  const query: Query = {};
  if (raw && typeof raw === 'object') {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      query[k] = Array.isArray(v) ? String(v[0]) : v === undefined ? undefined : String(v);
    }
  }
  return query;
}

/** The path as kube's router reads it; an escape that is no UTF-8 is a 400, as Fastify answers `%ff`. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw ApiError.badRequest(`invalid URL escape in path ${JSON.stringify(path)}`);
  }
}

/** Go's %q: how kube quotes a name in its messages (control characters as \x00). */
function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
}

/** A name or namespace no object can have and the database cannot hold (a NUL) is refused before storage. */
function checkAddress(info: RequestInfo): void {
  for (const [param, value] of [
    ['Namespace', info.namespace],
    ['Name', info.name],
  ] as const) {
    if (value.includes('\0')) {
      throw ApiError.badRequest(
        `${param} parameter invalid: ${goQuote(value)}: may not contain the NUL character (\\u0000)`,
      );
    }
  }
}

/** kube's isPrettyPrint: `pretty` read with Go's ParseBool (anything else is false), else by User-Agent. */
export function prettyRequested(query: Query, userAgent: string | undefined): boolean {
  if (query.pretty) return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(query.pretty);
  // kube pretty-prints for browsers and command-line HTTP tools by default
  return !!userAgent && /^(curl|Wget|Mozilla\/5\.0)/.test(userAgent);
}

/** The request names a kind and subresource this server serves (only those get their own metric labels). */
function servedBy(def: ResourceDefinition | undefined, info: RequestInfo): boolean {
  return !!def && (!info.subresource || !!def.subresources?.includes(info.subresource));
}

/** What authenticators see of a request: its headers and path, and its TLS client certificates when asked for. */
function authenticationRequest(req: FastifyRequest, path: string): AuthenticationRequest {
  return {
    headers: req.headers,
    rawHeaders: req.raw.rawHeaders,
    path,
    peerCertificates: () => peerCertificates(req.raw),
  };
}

/**
 * kube's audit ID: the client's `Audit-ID` header as sent, else a new UUID; every response echoes it as
 * `Audit-Id` (set on the raw response, so that streams written there carry it too).
 */
function auditIdOf(req: FastifyRequest, reply: FastifyReply): string {
  const given = req.headers['audit-id'];
  const id = (Array.isArray(given) ? given[0] : given) || randomUUID();
  reply.raw.setHeader('Audit-Id', id);
  return id;
}

/** What the audit step records of a request. */
function auditedRequest(
  req: FastifyRequest,
  info: RequestInfo,
  auditID: string,
  receivedMicros: number,
  user?: UserInfo,
): AuditedRequest {
  const h = req.headers;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return {
    auditID,
    receivedMicros,
    requestURI: req.url,
    info,
    user,
    userAgent: h['user-agent'],
    sourceIPs: sourceIPs(one(h['x-forwarded-for']), one(h['x-real-ip']), req.raw.socket?.remoteAddress),
    contentType: h['content-type'],
    body: req.body instanceof Buffer ? req.body : undefined,
  };
}

/** The audit follows the response: the objects it carries (its end: the close listener in `handle`). */
function followResponse(audit: RequestAudit | undefined, reply: FastifyReply): RequestAudit | undefined {
  if (audit) observeAudit(reply, audit);
  return audit;
}

/** The request's deadline passed: 504, unless its answer has begun (a later answer is dropped by `send`). */
function timedOut(reply: FastifyReply): void {
  if (reply.sent || reply.raw.headersSent) return;
  sendError(reply, requestTimedOut(), jsonOutput);
}

export interface PipelineSteps {
  authenticator: AuthenticatorUnion;
  /** removes the credentials of an authenticated request (Authorization, proxy headers) */
  credentialHeaders?: CredentialHeaders;
  impersonation: Impersonation;
  authorizer: AuthorizerChain;
  registry: Registry;
  resources: ResourceHandlers;
  nonResources: NonResourceHandlers;
  deprecatedApis: DeprecatedApis;
  /** requests served by another server, asked in order */
  delegates?: readonly Delegate[];
  /** sidecar mode: the upstream cluster, asked before authentication */
  upstream?: UpstreamForwarding;
  metrics?: ApiMetrics;
  features?: FeatureGates;
  /** --request-timeout for requests that are not long-running */
  timeouts?: RequestTimeouts;
  /** --max-requests-inflight, --max-mutating-requests-inflight */
  inflight?: InflightLimiter;
  /** --audit-policy-file with a backend: each request's audit events */
  audit?: Auditor;
  log: (e: unknown) => void;
}

export class Pipeline {
  private readonly features: FeatureGates;
  private readonly delegates: readonly Delegate[];

  constructor(private readonly steps: PipelineSteps) {
    this.features = steps.features ?? FeatureGates.defaults();
    this.delegates = steps.delegates ?? [];
  }

  /**
   * Whether another server handles this request, so its body is left unread for the delegate to stream (its
   * size is the backend's to judge). Asked before the body is read; authentication still comes first.
   */
  streamsBody(method: string, url: string): boolean {
    if (this.delegates.length === 0 && !this.steps.upstream) return false;
    try {
      const path = url.split('?', 1)[0];
      const info = parseRequestInfo(method, path.includes('%') ? decodePath(path) : path, {});
      if (this.steps.upstream && !this.steps.upstream.servesLocally(info)) return true;
      return this.delegates.some((d) => d.handles(info));
    } catch {
      return false;
    }
  }

  /** Whether an upgrade request goes to a delegate or the upstream (others are served as ordinary requests). */
  upgrades(req: IncomingMessage): boolean {
    return (
      (!!this.steps.upstream || this.delegates.some((d) => d.upgrade)) &&
      this.streamsBody(req.method ?? 'GET', req.url ?? '/')
    );
  }

  /**
   * An upgrade request for another server: authenticated, impersonated and authorized as every request, then
   * the delegate takes the socket. A refusal is written on the socket as a Status, and the socket closed.
   */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const { steps } = this;
    try {
      const [rawPath, search = ''] = (req.url ?? '/').split('?', 2);
      const query = flatQuery(Object.fromEntries(new URLSearchParams(search)));
      const path = rawPath.includes('%') ? decodePath(rawPath) : rawPath;
      const info = parseRequestInfo(req.method ?? 'GET', path, query);
      checkAddress(info);
      // sidecar mode: as in handle, before authentication
      const upstream = steps.upstream?.servesLocally(info) === false ? steps.upstream : undefined;
      const forwardAs = upstream?.forwardsAs(req);
      if (upstream && forwardAs === 'caller') return await upstream.upgrade(req, socket, head);
      const authenticated = await steps.authenticator.authenticate({
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        path,
        peerCertificates: () => peerCertificates(req),
      });
      steps.credentialHeaders?.remove(req);
      const user = await steps.impersonation.actAs(authenticated, impersonationHeaders(req.rawHeaders));
      const ctx = requestContext(info, user, req.headers['user-agent']);
      if (user !== authenticated) ctx.impersonator = authenticated;
      if (upstream) return await upstream.upgrade(req, socket, head, user);
      await steps.authorizer.check(
        requestAttributes(user, info, query, this.features.enabled('AuthorizeWithSelectors')),
      );
      const delegate = this.delegates.find((d) => d.upgrade && d.handles(info));
      if (!delegate) throw notServedError(info.group, info.version, info.resource);
      await delegate.upgrade!(ctx, req, socket, head);
    } catch (error) {
      writeStatus(socket, toApiError(error, steps.log));
    }
  }

  async handle(req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const { steps } = this;
    let out: Output = jsonOutput;
    let stopTimer: (() => void) | undefined;
    let slot: InflightSlot;
    const received = nowMicros();
    const auditID = auditIdOf(req, reply);
    let parsed: RequestInfo | undefined;
    let audit: RequestAudit | undefined;
    let counted: ((code: number) => void) | undefined;
    // one listener follows the response to its end (for a watch: when the watch ends): the metrics and the audit
    reply.raw.once('close', () => {
      const code = reply.raw.statusCode;
      counted?.(code);
      audit?.completed(code);
    });
    try {
      const query = flatQuery(req.query);
      const path = req.url.split('?', 1)[0];
      const pretty = prettyRequested(query, req.headers['user-agent']);
      const gzip =
        this.features.enabled('APIResponseCompression') && acceptsGzip(req.headers['accept-encoding']);
      out = { format: 'json', pretty, gzip };
      const routed = path.includes('%') ? decodePath(path) : path;
      const info = parseRequestInfo(req.method, routed, query);
      parsed = info;
      const def = info.isResourceRequest
        ? steps.registry.find(info.group, info.version, info.resource)
        : undefined;
      counted = this.track(info, def, query, req);
      checkAddress(info);
      // kube's request deadline: past it a request that is not a watch answers 504, and its own answer is dropped
      if (steps.timeouts && info.verb !== 'watch')
        stopTimer = steps.timeouts.start(steps.timeouts.budgetMs(query.timeout), () => timedOut(reply));

      // sidecar mode: what this server does not serve goes upstream now, unauthenticated here (the upstream
      // judges the caller's credentials); a client certificate only we can see is authenticated first
      const upstream = steps.upstream?.servesLocally(info) === false ? steps.upstream : undefined;
      const forwardAs = upstream?.forwardsAs(req.raw);
      if (upstream && forwardAs === 'caller') return await upstream.forward(req, reply);

      const authenticated = await steps.authenticator.authenticate(authenticationRequest(req, routed));
      steps.credentialHeaders?.remove(req.raw);
      // audit: the policy's level for the authenticated user; RequestReceived now, the rest as the request goes
      audit = followResponse(
        steps.audit?.begin(auditedRequest(req, info, auditID, received, authenticated)),
        reply,
      );
      const user = await steps.impersonation.actAs(authenticated, impersonationHeaders(req.raw.rawHeaders));
      if (user !== authenticated) audit?.impersonated(user);
      // the upstream authorizes the user this server authenticated (it impersonates them there)
      if (upstream) return await upstream.forward(req, reply, user);
      // kube's max-in-flight filter, after authentication and impersonation: 429 when full (system:masters pass)
      slot = steps.inflight?.admit(info, user);
      const ctx = requestContext(info, user, req.headers['user-agent']);
      if (user !== authenticated) ctx.impersonator = authenticated;
      audit?.annotateFrom(ctx.auditAnnotations);
      const attributes = requestAttributes(
        user,
        info,
        query,
        this.features.enabled('AuthorizeWithSelectors'),
      );
      const verdict = await steps.authorizer.decide(attributes);
      audit?.authorized(verdict);
      steps.authorizer.enforce(attributes, verdict);

      for (const delegate of this.delegates)
        if (delegate.handles(info)) return await delegate.handle(ctx, req, reply);
      // discovery negotiates its own forms (aggregated discovery); resources pick JSON, YAML, Protobuf or CBOR here
      if (!info.isResourceRequest) return await steps.nonResources.handle(info, req, reply, out);
      if (!def) throw notServedError(info.group, info.version, info.resource);
      this.warnIfDeprecated(def, info, reply);
      const cbor = this.features.enabled('CBORServingAndStorage');
      const negotiated = negotiateOutput(req.headers.accept, (c) => conversionServes(info.verb, c), {
        protobuf: hasProtobufForm(def),
        stream: info.verb === 'watch',
        cbor,
      });
      out = {
        format: negotiated.format,
        pretty,
        gzip,
        conversion: negotiated.conversion,
        protobuf: negotiated.protobuf ? protobufSchema(def, negotiated.conversion) : undefined,
        // CBOR needs the kind's schema only to know its byte fields; PartialObjectMetadata has none
        cbor: negotiated.cbor ? { schema: negotiated.conversion ? undefined : def.schema } : undefined,
      };
      const answered = await steps.resources.handle({ ctx, info, def, query, req, reply, out, cbor });
      // a watch's headers are out: its ResponseStarted event
      if (reply.raw.headersSent) audit?.started(reply.raw.statusCode);
      return answered;
    } catch (error) {
      if (reply.sent || reply.raw.headersSent) return undefined;
      const apiError = toApiError(error, (e) => {
        steps.log(e);
        audit?.panicked(e);
      });
      // refused credentials: kube's failed-authentication audit event
      if (!audit && parsed && apiError.code === 401 && steps.audit)
        audit = followResponse(
          steps.audit.failedAuthentication(auditedRequest(req, parsed, auditID, received)),
          reply,
        );
      return sendError(reply, apiError, out);
    } finally {
      stopTimer?.();
      steps.inflight?.release(slot);
    }
  }

  /** The request in the metrics: what counts it once its response is over (with its code). */
  private track(
    info: RequestInfo,
    def: ResourceDefinition | undefined,
    query: Query,
    req: FastifyRequest,
  ): ((code: number) => void) | undefined {
    if (!this.steps.metrics) return undefined;
    const kind =
      info.verb === 'watch'
        ? 'longRunning'
        : info.verb === 'get' || info.verb === 'list'
          ? 'readOnly'
          : 'mutating';
    return this.steps.metrics.begin(
      requestLabels(info, req.method, req.headers['content-type'], query.dryRun, servedBy(def, info)),
      kind,
    );
  }

  /** A deprecated version answers with kube's Warning (errors too) and is recorded for the metrics. */
  private warnIfDeprecated(def: ResourceDefinition, info: RequestInfo, reply: FastifyReply): void {
    const deprecation = deprecationOf(def, info.version, info.subresource);
    if (!deprecation) return;
    addWarnings(reply, [deprecation.warning]);
    this.steps.deprecatedApis.record({
      group: info.group,
      version: info.version,
      resource: info.resource,
      subresource: info.subresource,
      removed_release: deprecation.removedRelease,
    });
  }
}
