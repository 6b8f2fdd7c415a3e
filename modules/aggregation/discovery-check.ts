/**
 * kube's availability probe of a backend: GET `/apis/<group>/<version>` (a path every aggregated server must
 * serve) as the aggregator itself (system:kube-aggregator in system:masters), presenting the proxy client
 * certificate, the serving certificate not checked (kube: this only says whether something answers), within
 * 5 seconds; any 2xx passes. The error reads as kube's condition message.
 */
import { Agent, request } from 'node:https';
import type { APIService } from '../kinds/index.js';
import { AGGREGATOR_USER, identityHeaders } from './identity-headers.js';
import type { ProxyClientCertificate } from './remote-apiservices.js';

const TIMEOUT_MS = 5000;

export class DiscoveryCheck {
  private readonly agent: Agent;

  constructor(
    client: ProxyClientCertificate | undefined,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {
    this.agent = new Agent({
      keepAlive: true,
      rejectUnauthorized: false,
      cert: client?.cert,
      key: client?.key,
      ALPNProtocols: ['http/1.1'],
    });
  }

  /** undefined when the backend answered 2xx; else kube's message */
  check(apiService: APIService, at: { host: string; port: number }): Promise<string | undefined> {
    const host = at.host.includes(':') ? `[${at.host}]` : at.host;
    const path = `/apis/${apiService.spec?.group}/${apiService.spec?.version}`;
    const url = `https://${host}:${at.port}${path}`;
    return new Promise((resolve) => {
      const req = request(
        {
          host: at.host,
          port: at.port,
          path,
          agent: this.agent,
          headers: { ...identityHeaders(AGGREGATOR_USER), Accept: 'application/json' },
          timeout: this.timeoutMs,
        },
        (res) => {
          res.resume();
          const code = res.statusCode ?? 0;
          resolve(
            code >= 200 && code < 300
              ? undefined
              : `failing or missing response from ${url}: bad status from ${url}: ${code}`,
          );
        },
      );
      req.once('timeout', () => req.destroy(new Error(`timed out wait for ${url}`)));
      req.once('error', (e: NodeJS.ErrnoException) =>
        resolve(`failing or missing response from ${url}: ${e.code ? `${e.code} ${e.message}` : e.message}`),
      );
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
