/** Paths outside the resource API: discovery (/api, /apis, ...), /version, /openapi. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestInfo } from '../../modules/api/request-info.js';
import { ApiError } from '../../modules/api/status.js';
import { negotiateOutput } from '../../modules/codec/index.js';
import {
  aggregatedDiscoveryResponse,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  negotiateDiscovery,
} from '../../modules/registry/discovery/index.js';
import { openApiV2, openApiV3Document, openApiV3Index } from '../../modules/registry/openapi/index.js';
import type { Registry } from '../../modules/registry/registry.js';
import { send, type Output } from './respond.js';

/** kube-apiserver v1.32's version document (what `kubectl version` and client-go read) */
export const versionInfo = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.3',
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
  ) {}

  handle(info: RequestInfo, req: FastifyRequest, reply: FastifyReply, out: Output): unknown {
    const path = info.path.replace(/\/+$/, '') || '/';
    const defs = this.registry.definitions;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw ApiError.methodNotAllowed(`the server does not allow this method on the requested resource`);
    }
    if (path === '/api' || path === '/apis') return this.discoveryRoot(path === '/api' ? 'api' : 'apis', req, reply, out);
    out = { ...out, format: negotiateOutput(req.headers.accept) };
    if (path === '/version') return send(reply, 200, versionInfo, out);
    if (path === '/api/v1') return send(reply, 200, apiResourceList(defs, '', 'v1'), out);
    const groupMatch = /^\/apis\/([^/]+)$/.exec(path);
    if (groupMatch) {
      const group = apiGroup(defs, groupMatch[1]);
      if (!group) throw ApiError.pathNotFound();
      return send(reply, 200, group, out);
    }
    const gvMatch = /^\/apis\/([^/]+)\/([^/]+)$/.exec(path);
    if (gvMatch) {
      if (!this.registry.hasGroupVersion(gvMatch[1], gvMatch[2])) throw ApiError.pathNotFound();
      return send(reply, 200, apiResourceList(defs, gvMatch[1], gvMatch[2]), out);
    }
    if (path === '/openapi/v2') return this.raw(reply, 'application/json', openApiV2(defs));
    if (path === '/openapi/v3') return this.raw(reply, 'application/json', openApiV3Index(defs));
    if (path.startsWith('/openapi/v3/')) {
      const doc = openApiV3Document(defs, path.slice('/openapi/v3/'.length));
      if (!doc) throw ApiError.pathNotFound();
      if (info.path && (req.query as Record<string, string>).hash) reply.header('Cache-Control', 'public, immutable');
      return this.raw(reply, 'application/json', doc);
    }
    throw ApiError.pathNotFound();
  }

  private discoveryRoot(prefix: 'api' | 'apis', req: FastifyRequest, reply: FastifyReply, out: Output): unknown {
    const negotiated = negotiateDiscovery(req.headers.accept, ['application/json', 'application/yaml']);
    if (!negotiated) throw ApiError.notAcceptable(['application/json', 'application/yaml']);
    if (negotiated.aggregated) {
      const r = aggregatedDiscoveryResponse(
        this.registry.definitions,
        prefix,
        negotiated.aggregated,
        negotiated.contentType,
        req.headers['if-none-match'],
      );
      return reply.code(r.status).headers(r.headers).send(r.body);
    }
    const doc = prefix === 'api' ? apiVersions(this.serverAddress()) : apiGroupList(this.registry.definitions);
    return send(reply, 200, doc, { ...out, format: negotiated.mediaType === 'application/yaml' ? 'yaml' : 'json' });
  }

  private raw(reply: FastifyReply, contentType: string, doc: unknown): unknown {
    return reply.code(200).header('Content-Type', contentType).send(typeof doc === 'string' ? doc : JSON.stringify(doc));
  }
}
