/** Paths outside the resource API: discovery (/api, /apis, ...), /version, /openapi. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestInfo } from '../api/index.js';
import {
  JWKS_CONTENT_TYPE,
  JWKS_PATH,
  OPENID_CACHE_CONTROL,
  OPENID_CONFIGURATION_PATH,
  type OpenIdDiscovery,
} from '../authentication/index.js';
import { ApiError } from '../api/index.js';
import { servedRelease } from '../api/index.js';
import type { HealthEndpoint } from '../health/index.js';
import type { ApiMetrics } from '../metrics/index.js';
import { negotiateOutput } from '../codec/index.js';
import {
  aggregatedDiscoveryResponse,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  mergedAggregatedDiscoveryResponse,
  mergedApiGroup,
  mergedApiGroupList,
  negotiateDiscovery,
} from '../discovery/index.js';
import {
  mergedOpenApiV2Response,
  mergedOpenApiV3Index,
  openApiV2Response,
  openApiV3Index,
  openApiV3Response,
} from '../openapi/index.js';
import type { Registry } from '../registry/index.js';
import { notServedError } from '../versioning/index.js';
import type { RemoteDocuments } from './remote-documents.js';
import { send, type Output } from './respond.js';

/** kube-apiserver v1.32's version document (what `kubectl version` and client-go read) */
export const versionInfo = {
  major: String(servedRelease.major),
  minor: String(servedRelease.minor),
  gitVersion: `v${servedRelease.major}.${servedRelease.minor}.${servedRelease.patch}`,
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-03-11T00:00:00Z',
  goVersion: 'go1.23.6',
  compiler: 'gc',
  platform: `linux/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

export class NonResourceHandlers {
  constructor(
    private readonly registry: Registry,
    private readonly serverAddress: () => string,
    private readonly health: Record<'healthz' | 'livez' | 'readyz', HealthEndpoint>,
    private readonly metrics?: ApiMetrics,
    /** the service-account issuer's discovery documents (none when its issuer is no https URL) */
    private readonly openid?: OpenIdDiscovery,
    /** on an aggregation host: what the remote APIServices' servers publish, merged into ours */
    private readonly remote?: RemoteDocuments,
  ) {}

  handle(info: RequestInfo, req: FastifyRequest, reply: FastifyReply, out: Output): unknown {
    const path = info.path.replace(/\/+$/, '') || '/';
    const defs = this.registry.definitions;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw ApiError.methodNotAllowed(`the server does not allow this method on the requested resource`);
    }
    const healthMatch = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
    if (healthMatch) return this.healthAnswer(healthMatch[1] as 'healthz', healthMatch[2], req, reply);
    if (path === '/metrics' && this.metrics) return this.metricsAnswer(this.metrics, reply);
    if (this.openid && (path === OPENID_CONFIGURATION_PATH || path === JWKS_PATH))
      return this.openidAnswer(this.openid, path, reply);
    if (path === '/api' || path === '/apis')
      return this.discoveryRoot(path === '/api' ? 'api' : 'apis', req, reply, out);
    if (path === '/openapi/v2' || path.startsWith('/openapi/v3')) return this.openapi(path, req, reply);
    out = { ...out, format: negotiateOutput(req.headers.accept).format };
    if (path === '/version') return send(reply, 200, versionInfo, out);
    if (path === '/api/v1') return send(reply, 200, apiResourceList(defs, '', 'v1'), out);
    const groupMatch = /^\/apis\/([^/]+)$/.exec(path);
    if (groupMatch) {
      const group = this.remote
        ? mergedApiGroup(defs, this.remote.discovery.snapshot, groupMatch[1])
        : apiGroup(defs, groupMatch[1]);
      if (!group) throw ApiError.pathNotFound();
      return send(reply, 200, group, out);
    }
    const gvMatch = /^\/apis\/([^/]+)\/([^/]+)$/.exec(path);
    if (gvMatch) {
      if (!this.registry.hasGroupVersion(gvMatch[1], gvMatch[2]))
        throw notServedError(gvMatch[1], gvMatch[2]);
      return send(reply, 200, apiResourceList(defs, gvMatch[1], gvMatch[2]), out);
    }
    throw ApiError.pathNotFound();
  }

  /** kube's issuer discovery: its own media types, cacheable by anyone (the keys are public) */
  private openidAnswer(openid: OpenIdDiscovery, path: string, reply: FastifyReply): unknown {
    const jwks = path === JWKS_PATH;
    return (
      reply
        .code(200)
        .header('Content-Type', jwks ? JWKS_CONTENT_TYPE : 'application/json')
        .header('Cache-Control', OPENID_CACHE_CONTROL)
        // bytes: a string would get `; charset=utf-8`, which kube does not send
        .send(Buffer.from(jwks ? openid.jwks() : openid.configuration(this.serverAddress())))
    );
  }

  /** Prometheus text format, as kube serves it to authenticated scrapers */
  private async metricsAnswer(metrics: ApiMetrics, reply: FastifyReply): Promise<unknown> {
    const { contentType, body } = await metrics.render();
    return reply.code(200).header('Content-Type', contentType).send(body);
  }

  private async healthAnswer(
    endpoint: 'healthz' | 'livez' | 'readyz',
    check: string | undefined,
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<unknown> {
    const query = req.query as Record<string, string | string[] | undefined>;
    const exclude = ([] as string[]).concat(query.exclude ?? []);
    const answer = check
      ? await this.health[endpoint].one(check)
      : await this.health[endpoint].all(query.verbose !== undefined, exclude);
    if (!answer) throw ApiError.pathNotFound();
    return reply
      .code(answer.status)
      .header('Content-Type', 'text/plain; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      .send(answer.body);
  }

  private discoveryRoot(
    prefix: 'api' | 'apis',
    req: FastifyRequest,
    reply: FastifyReply,
    out: Output,
  ): unknown {
    const negotiated = negotiateDiscovery(req.headers.accept, ['application/json', 'application/yaml']);
    if (!negotiated) throw ApiError.notAcceptable(['application/json', 'application/yaml']);
    if (negotiated.aggregated) {
      const args = [negotiated.aggregated, negotiated.contentType, req.headers['if-none-match']] as const;
      const r =
        this.remote && prefix === 'apis'
          ? mergedAggregatedDiscoveryResponse(
              this.registry.definitions,
              this.remote.discovery.snapshot,
              ...args,
            )
          : aggregatedDiscoveryResponse(this.registry.definitions, prefix, ...args);
      // a 304 keeps the negotiated Content-Type: HTTP caches merge it into the cached answer
      return reply
        .code(r.status)
        .headers({ ...r.headers, 'Content-Type': negotiated.contentType })
        .send(r.status === 304 ? undefined : r.body);
    }
    const defs = this.registry.definitions;
    const doc =
      prefix === 'api'
        ? apiVersions(this.serverAddress())
        : this.remote
          ? mergedApiGroupList(defs, this.remote.discovery.snapshot)
          : apiGroupList(defs);
    return send(reply, 200, doc, {
      ...out,
      format: negotiated.mediaType === 'application/yaml' ? 'yaml' : 'json',
    });
  }

  private openapi(path: string, req: FastifyRequest, reply: FastifyReply): unknown {
    const defs = this.registry.definitions;
    const q = req.query as Record<string, string | undefined>;
    const conditions = { accept: req.headers.accept, ifNoneMatch: req.headers['if-none-match'] };
    const r =
      path === '/openapi/v2'
        ? this.remote
          ? mergedOpenApiV2Response(defs, this.remote.openApiV2.snapshot, conditions)
          : openApiV2Response(defs, conditions)
        : path === '/openapi/v3'
          ? {
              status: 200,
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(
                this.remote
                  ? mergedOpenApiV3Index(defs, this.remote.openApiV3.snapshot)
                  : openApiV3Index(defs),
              ),
            }
          : openApiV3Response(defs, path.slice('/openapi/v3/'.length), { ...conditions, hash: q.hash });
    if (r.status === 404) throw ApiError.pathNotFound();
    if (r.status === 406) throw ApiError.notAcceptable(['application/json']);
    return reply
      .code(r.status)
      .headers(r.headers)
      .send(r.body || undefined);
  }
}
