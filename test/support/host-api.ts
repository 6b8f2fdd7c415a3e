/**
 * A stand-in for a delegating server's host in unit specs: a plain HTTP server on 127.0.0.1 that answers each
 * `METHOD path` from a table the spec changes as it goes (status code and JSON body), and records every
 * request (path, Authorization, body). The real host (another pgkube) is test/delegation.e2e-spec.ts's.
 */
import { createServer, type Server } from 'node:http';
import type { WebhookConnection } from '../../modules/webhook/index.js';

export interface HostAnswer {
  code?: number;
  body?: unknown;
}

export interface HostCall {
  method: string;
  path: string;
  authorization?: string;
  body?: any;
}

export interface HostApi {
  /** `GET /api/v1/...` → answer, or a function of the request body; unknown routes answer 404 */
  routes: Map<string, HostAnswer | ((body: any) => HostAnswer)>;
  calls: HostCall[];
  connection: WebhookConnection;
  close(): Promise<void>;
}

export async function hostApi(token = 'host-token'): Promise<HostApi> {
  const routes: HostApi['routes'] = new Map();
  const calls: HostCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const body = text ? JSON.parse(text) : undefined;
      const path = new URL(req.url!, 'http://host').pathname;
      calls.push({ method: req.method!, path, authorization: req.headers.authorization, body });
      const route = routes.get(`${req.method} ${path}`);
      const answer = typeof route === 'function' ? route(body) : route;
      if (!answer) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({ kind: 'Status', apiVersion: 'v1', code: 404, message: 'not found' }),
        );
      }
      res.writeHead(answer.code ?? 200, { 'content-type': 'application/json' });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    routes,
    calls,
    connection: { url: new URL(`http://127.0.0.1:${port}`), insecureSkipTlsVerify: false, token },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
