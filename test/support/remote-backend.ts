/**
 * A second API server for aggregation specs: a real node:http server answering canned documents by path (the
 * Accept header may pick the answer), and a RemoteApis over plain HTTP to it, whose APIService list a spec sets.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RemoteApis, RemoteGroupVersion, RemoteResponse } from '../../modules/discovery/index.js';

export interface CannedAnswer {
  status?: number;
  contentType?: string;
  body: unknown;
}

/** An answer for a request, or undefined for 404. */
export type Route = (accept: string) => CannedAnswer | undefined;

export class Backend {
  /** by path (no query) */
  readonly routes = new Map<string, Route>();
  /** every request seen: `path accept` */
  readonly requests: string[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const accept = req.headers.accept ?? '';
      this.requests.push(`${path} ${accept}`);
      const answer = this.routes.get(path)?.(accept);
      if (!answer) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"kind":"Status","code":404}');
        return;
      }
      const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res
        .writeHead(answer.status ?? 200, { 'Content-Type': answer.contentType ?? 'application/json' })
        .end(body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Serves `body` as JSON at `path` whatever the Accept. */
  json(path: string, body: unknown, status = 200): void {
    this.routes.set(path, () => ({ status, body }));
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** RemoteApis over HTTP: every APIService's backend is `backends[apiService]` (a URL). */
export class HttpRemoteApis implements RemoteApis {
  private services: RemoteGroupVersion[] = [];
  private readonly listeners = new Set<() => void>();
  readonly backends = new Map<string, string>();

  list(): readonly RemoteGroupVersion[] {
    return this.services;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Replaces the APIServices (each served by the backend at `url`) and tells the listeners. */
  set(services: (RemoteGroupVersion & { url: string })[]): void {
    this.services = services.map(({ url, ...s }) => {
      this.backends.set(s.apiService, url);
      return s;
    });
    for (const l of this.listeners) l();
  }

  get(apiService: string, path: string, accept: string): Promise<RemoteResponse> {
    const base = this.backends.get(apiService);
    if (!base) return Promise.reject(new Error(`no backend for ${apiService}`));
    return new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { headers: { accept } }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks),
            ...(res.headers.etag ? { etag: res.headers.etag } : {}),
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }
}

/** An APIService entry: `<version>.<group>` with the given priorities. */
export function apiService(
  group: string,
  version: string,
  url: string,
  groupPriorityMinimum = 1000,
  versionPriority = 15,
): RemoteGroupVersion & { url: string } {
  return { group, version, groupPriorityMinimum, versionPriority, apiService: `${version}.${group}`, url };
}
