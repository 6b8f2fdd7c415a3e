/**
 * The one request pipeline (DESIGN.md rule 2): RequestInfo → authentication → authorization → route →
 * decode → validation/admission → storage → encode. Every failure on the way leaves as a Status.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseRequestInfo, type RequestInfo } from '../api/index.js';
import { ApiError } from '../api/index.js';
import type { Authenticator, UserInfo } from '../authentication/index.js';
import { acceptsGzip, negotiateOutput, type Conversion } from '../codec/index.js';
import { partialObjectMetadataSchema } from '../codec/index.js';
import type { ResourceDefinition, Schema } from '../registry/index.js';
import type { Registry } from '../registry/index.js';
import { requestLabels, type ApiMetrics } from '../metrics/index.js';
import { deprecationOf, FeatureGates, notServedError, type DeprecatedApis } from '../versioning/index.js';
import type { NonResourceHandlers } from './non-resource.js';
import type { Query, ResourceHandlers } from './resources.js';
import { addWarnings, jsonOutput, sendError, toApiError, type Output } from './respond.js';

/** Paths kube's default policy opens to everyone (system:public-info-viewer). */
const PUBLIC_PATHS = new Set(['/version', '/version/', '/healthz', '/livez', '/readyz']);

/** Table for every read; PartialObjectMetadata for one object (get, watch events), ...List for lists. */
function conversionServes(verb: string, c: Conversion): boolean {
  if (c.as === 'Table') return verb === 'get' || verb === 'list' || verb === 'watch';
  if (c.as === 'PartialObjectMetadata') return verb === 'get' || verb === 'watch';
  return verb === 'list';
}

const protobufForms = new WeakMap<ResourceDefinition, boolean>();

/** Kinds whose schema carries protobuf field numbers (the built-in kinds; CRDs have none). */
function hasProtobufForm(def: ResourceDefinition): boolean {
  let has = protobufForms.get(def);
  if (has === undefined) {
    has = Object.values(def.schema.properties ?? {}).some((p) => p['x-pgkube-protobuf'] !== undefined);
    protobufForms.set(def, has);
  }
  return has;
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

function prettyRequested(query: Query, userAgent: string | undefined): boolean {
  if (query.pretty !== undefined) return query.pretty !== 'false' && query.pretty !== '0';
  // kube pretty-prints for command-line HTTP tools by default
  return !!userAgent && /^(curl|wget)/i.test(userAgent);
}

export class Pipeline {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly registry: Registry,
    private readonly resources: ResourceHandlers,
    private readonly nonResources: NonResourceHandlers,
    private readonly deprecatedApis: DeprecatedApis,
    private readonly log: (e: unknown) => void,
    private readonly metrics?: ApiMetrics,
    private readonly features: FeatureGates = FeatureGates.defaults(),
  ) {}

  async handle(req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    let out: Output = jsonOutput;
    try {
      const query = flatQuery(req.query);
      const path = req.url.split('?', 1)[0];
      const pretty = prettyRequested(query, req.headers['user-agent']);
      const gzip =
        this.features.enabled('APIResponseCompression') && acceptsGzip(req.headers['accept-encoding']);
      out = { format: 'json', pretty, gzip };
      const info = parseRequestInfo(req.method, path.includes('%') ? decodeURIComponent(path) : path, query);
      this.track(info, query, req, reply);
      const user = this.authenticator.authenticate(req.headers.authorization);
      this.authorize(user, info);
      // discovery negotiates its own forms (aggregated discovery); resources pick JSON, YAML, Protobuf or CBOR here
      if (!info.isResourceRequest) return this.nonResources.handle(info, req, reply, out);
      const def = this.registry.find(info.group, info.version, info.resource);
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
      return await this.resources.handle({ info, def, query, req, reply, out, cbor });
    } catch (error) {
      if (reply.sent || reply.raw.headersSent) return undefined;
      return sendError(reply, toApiError(error, this.log), out);
    }
  }

  /** Counts the request in the metrics once its response is over (for a watch: when the watch ends). */
  private track(info: RequestInfo, query: Query, req: FastifyRequest, reply: FastifyReply): void {
    if (!this.metrics) return;
    const kind =
      info.verb === 'watch'
        ? 'longRunning'
        : info.verb === 'get' || info.verb === 'list'
          ? 'readOnly'
          : 'mutating';
    const done = this.metrics.begin(
      requestLabels(info, req.method, req.headers['content-type'], query.dryRun),
      kind,
    );
    reply.raw.once('close', () => done(reply.raw.statusCode));
  }

  /** A deprecated version answers with kube's Warning (errors too) and is recorded for the metrics. */
  private warnIfDeprecated(def: ResourceDefinition, info: RequestInfo, reply: FastifyReply): void {
    const deprecation = deprecationOf(def, info.version, info.subresource);
    if (!deprecation) return;
    addWarnings(reply, [deprecation.warning]);
    this.deprecatedApis.record({
      group: info.group,
      version: info.version,
      resource: info.resource,
      subresource: info.subresource,
      removed_release: deprecation.removedRelease,
    });
  }

  /** This slice: every authenticated user may do everything; anonymous users only read public paths. */
  private authorize(user: UserInfo, info: RequestInfo): void {
    if (user.groups.includes('system:authenticated')) return;
    if (
      !info.isResourceRequest &&
      (PUBLIC_PATHS.has(info.path) || /^\/(healthz|livez|readyz)\//.test(info.path))
    )
      return;
    if (!info.isResourceRequest) {
      throw ApiError.forbidden(`forbidden: User "${user.name}" cannot ${info.verb} path "${info.path}"`);
    }
    const where = info.namespace ? ` in the namespace "${info.namespace}"` : '';
    const what = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
    throw ApiError.forbidden(
      `${what}${info.name ? ` "${info.name}"` : ''} is forbidden: User "${user.name}" cannot ${info.verb} resource "${what}" in API group "${info.group}"${where}`,
      { group: info.group, resource: info.resource },
      info.name || undefined,
    );
  }
}
