/** A GET of this server's own to an upstream (discovery documents, OpenAPI): the whole answer, bounded in time. */
import type { OutgoingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import type { Upstream, UpstreamAgents } from './upstream.js';

export interface FetchedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function fetchUpstream(
  agents: UpstreamAgents,
  upstream: Upstream,
  path: string,
  headers: OutgoingHttpHeaders,
  timeoutMs: number,
): Promise<FetchedAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: upstream.host, port: upstream.port, path, headers, agent: agents.agent(upstream) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.once('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.once('error', reject);
    req.end();
  });
}
