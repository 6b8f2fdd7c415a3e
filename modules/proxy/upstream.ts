/**
 * Where a forwarded request goes and how it is trusted: an address, the TLS name its certificate must carry
 * (kube checks `<service>.<namespace>.svc`, not the address dialled), the CA bundle or none at all, and the
 * client certificate this server presents. Connections are kept alive per upstream (one Agent each).
 */
import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';

export interface Upstream {
  host: string;
  port: number;
  /** the name the serving certificate must be valid for (default: host) */
  serverName?: string;
  /** PEM bundle that must have signed the serving certificate; unset: the system's roots */
  ca?: string;
  /** no check of the serving certificate at all (an APIService's insecureSkipTLSVerify) */
  insecureSkipTLSVerify?: boolean;
  /** what this server presents (the front-proxy client certificate) */
  clientCert?: { cert: string; key: string };
}

/** Idle upstream connections are closed after this (Go's transport: 90 s). */
const IDLE_MS = 90_000;

function isIpAddress(name: string): boolean {
  return /^[\d.]+$/.test(name) || name.includes(':');
}

export class UpstreamAgents {
  private readonly agents = new Map<string, Agent>();

  agent(upstream: Upstream): Agent {
    const key = createHash('sha256')
      .update(
        JSON.stringify([
          upstream.host,
          upstream.port,
          upstream.serverName,
          upstream.ca,
          upstream.insecureSkipTLSVerify,
          upstream.clientCert?.cert,
        ]),
      )
      .digest('hex');
    let agent = this.agents.get(key);
    if (!agent) {
      const name = upstream.serverName ?? upstream.host;
      agent = new Agent({
        keepAlive: true,
        noDelay: true,
        // Go's MaxIdleConnsPerHost for the aggregator's transport
        maxFreeSockets: 100,
        timeout: IDLE_MS,
        ca: upstream.ca,
        rejectUnauthorized: !upstream.insecureSkipTLSVerify,
        cert: upstream.clientCert?.cert,
        key: upstream.clientCert?.key,
        // SNI carries a name, never an address (RFC 6066)
        servername: isIpAddress(name) ? '' : name,
        checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(name, cert),
        // HTTP/1.1 only: every kind of request (watch streams, upgrades) goes through unchanged
        ALPNProtocols: ['http/1.1'],
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** Connections to upstreams that are gone or changed are dropped. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
