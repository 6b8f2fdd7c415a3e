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
import { forward, relayUpgrade, unavailable, type Upstream } from '../proxy/index.js';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
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
    await this.toBackend(ctx, (upstream) =>
      forward(
        this.remote.agents,
        upstream,
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
      ),
    );
    return undefined;
  }

  /** exec, attach, port-forward of a remote kind: relayed byte for byte once authorized */
  async upgrade(ctx: RequestContext, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    await this.toBackend(ctx, (upstream) =>
      relayUpgrade(
        upstream,
        {
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
          dropHeaders: droppedHeader,
          extraHeaders: identityHeaders(ctx.user),
        },
        socket,
        head,
      ),
    );
  }

  /** `send` to the backend now; a backend that is not Available, or cannot be reached, is a 503 */
  private async toBackend(ctx: RequestContext, send: (upstream: Upstream) => Promise<void>): Promise<void> {
    const apiService = this.target(ctx.info)!;
    if (!RemoteApiServices.available(apiService)) throw unavailable();
    const resolved = this.remote.resolve(apiService);
    try {
      if (!resolved.ok) throw unavailable();
      await send(this.remote.upstream(apiService, resolved));
    } catch (e) {
      // look again at once rather than at the next period
      this.availability?.recheck(apiService.metadata.name!);
      throw e;
    }
  }
}
