/**
 * Requests for a group/version a remote APIService serves go to its backend once this server has
 * authenticated and authorized them (the pipeline's Delegate step): resources, the group/version's discovery
 * (`/apis/<group>/<version>`) and its OpenAPI v3 document. The backend gets the request as sent, minus
 * credentials, plus the caller's identity in X-Remote-* headers under the proxy client certificate. An
 * APIService that is not Available, or a backend that cannot be reached, answers 503 (and the availability
 * controller looks again at once).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { RequestContext, RequestInfo } from '../api/index.js';
import type { APIService } from '../kinds/index.js';
import { forward, unavailable } from '../proxy/index.js';
import type { AvailabilityController } from './availability.js';
import { droppedHeader, identityHeaders } from './identity-headers.js';
import { RemoteApiServices } from './remote-apiservices.js';

const GROUP_VERSION_PATH = /^\/(?:apis|openapi\/v3\/apis)\/([^/]+)\/([^/]+)\/?$/;

export class ProxyDelegate {
  constructor(
    private readonly remote: RemoteApiServices,
    private readonly availability?: AvailabilityController,
  ) {}

  private target(info: RequestInfo): APIService | undefined {
    if (info.isResourceRequest) return info.group ? this.remote.route(info.group, info.version) : undefined;
    const m = GROUP_VERSION_PATH.exec(info.path);
    return m ? this.remote.route(m[1], m[2]) : undefined;
  }

  handles(info: RequestInfo): boolean {
    return this.target(info) !== undefined;
  }

  async handle(ctx: RequestContext, req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const apiService = this.target(ctx.info)!;
    if (!RemoteApiServices.available(apiService)) throw unavailable();
    const resolved = this.remote.resolve(apiService);
    if (!resolved.ok) {
      this.availability?.recheck(apiService.metadata.name!);
      throw unavailable();
    }
    try {
      await forward(
        this.remote.agents,
        this.remote.upstream(apiService, resolved),
        {
          method: req.method,
          path: req.url,
          headers: req.headers,
          body: req.body as Buffer | Readable | undefined,
          dropHeaders: droppedHeader,
          extraHeaders: identityHeaders(ctx.user),
          // from the answer on, the raw response is ours; before it, a failure leaves as the pipeline's Status
          answering: () => reply.hijack(),
        },
        reply.raw,
      );
    } catch (e) {
      this.availability?.recheck(apiService.metadata.name!);
      throw e;
    }
    return undefined;
  }
}
