/**
 * The pipeline's upstream step in sidecar mode: requests this server does not serve go to the upstream
 * cluster as they came, the caller's token with them (the upstream authenticates and authorizes), streamed both
 * ways (watches event by event, with backpressure; the upstream request closed when the client goes; no timeout
 * on watches), upgrade requests relayed byte for byte. A caller known here by client certificate goes with this
 * server's credentials, as itself impersonated. An upstream that cannot be reached is a 503 Status.
 */
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { Duplex, Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { anonymousUser, type RequestInfo, type UserInfo } from '../api/index.js';
import { droppedHeader } from '../aggregation/index.js';
import { peerCertificates } from '../authentication/index.js';
import type { UpstreamForwarding } from '../endpoints/index.js';
import { forward, relayUpgrade, type UpstreamAgents } from '../proxy/index.js';
import type { Registry } from '../registry/index.js';
import { impersonationOf } from './impersonation-headers.js';
import { localGroups } from './local-groups.js';
import { forwardedAs, servedLocally } from './local-requests.js';
import type { UpstreamTarget } from './upstream-target.js';

export class UpstreamForwarder implements UpstreamForwarding {
  constructor(
    private readonly target: UpstreamTarget,
    private readonly agents: UpstreamAgents,
    private readonly registry: Registry,
  ) {}

  servesLocally(info: RequestInfo): boolean {
    return servedLocally(info, localGroups(this.registry));
  }

  forwardsAs(raw: IncomingMessage | Http2ServerRequest): 'caller' | 'user' {
    return forwardedAs(raw.headers.authorization !== undefined, peerCertificates(raw) !== undefined);
  }

  async forward(req: FastifyRequest, reply: FastifyReply, user?: UserInfo): Promise<void> {
    await forward(
      this.agents,
      this.target.upstream,
      {
        method: req.method,
        path: this.target.prefix + req.url,
        headers: req.headers,
        body: req.body as Buffer | Readable | undefined,
        ...this.speakingFor(user),
        // from the answer on, the raw response is ours; before it, a failure leaves as the pipeline's Status
        answering: () => reply.hijack(),
      },
      reply.raw,
    );
  }

  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, user?: UserInfo): Promise<void> {
    await relayUpgrade(
      this.target.upstream,
      {
        method: req.method ?? 'GET',
        path: this.target.prefix + (req.url ?? '/'),
        headers: req.headers,
        ...this.speakingFor(user),
      },
      socket,
      head,
    );
  }

  /** nothing changed for the caller; for a user authenticated here, our credentials and their identity */
  private speakingFor(user: UserInfo | undefined) {
    if (!user) return {};
    // a certificate no CA here trusts, where anonymous access is allowed: anonymous upstream as well
    if (user.name === anonymousUser.name) return { dropHeaders: droppedHeader };
    return {
      dropHeaders: droppedHeader,
      extraHeaders: { ...this.target.credentials(), ...impersonationOf(user) },
    };
  }
}
