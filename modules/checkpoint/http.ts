/**
 * The node agent's HTTPS API, as the kubelet serves it: every request is authenticated and authorized first
 * (401 `Unauthorized`, 403 `Forbidden (user=..., verb=..., resource=..., subresource=...)`), then routed; the
 * checkpoint route exists only while the ContainerCheckpoint gate is on. Answers are the kubelet's plain text (go-restful's for
 * unknown routes).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '../api/index.js';
import type { KubeletAccess } from './access.js';
import type { Answer, CheckpointService } from './checkpoint.js';

export interface KubeletApiOptions {
  access: KubeletAccess;
  checkpoint: CheckpointService;
  /** feature gate ContainerCheckpoint */
  checkpointEnabled: boolean;
  log: (message: string) => void;
}

const CHECKPOINT_ROUTE = /^\/checkpoint\/([^/]+)\/([^/]+)\/([^/]+)$/;

function send(res: ServerResponse, a: Answer): void {
  res.writeHead(a.status, { 'content-type': a.contentType, 'content-length': Buffer.byteLength(a.body) });
  res.end(a.body);
}

const plain = (status: number, body: string): Answer => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body,
});

/** Go's URL.Path: the path decoded; undefined when an escape is malformed */
function decodedPath(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export function kubeletApi(o: KubeletApiOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const route = async (req: IncomingMessage): Promise<Answer> => {
    const url = new URL(req.url ?? '/', 'https://node');
    const path = decodedPath(url.pathname);
    if (path === undefined) return plain(400, 'Bad Request');
    let user: UserInfo;
    try {
      user = await o.access.authenticate(req, path);
    } catch {
      return plain(401, 'Unauthorized');
    }
    const decision = await o.access.authorize(user, req.method ?? '', path);
    if (!decision.allowed) return plain(decision.status, decision.message);
    // route parameters are path segments, each decoded on its own
    const m = o.checkpointEnabled ? CHECKPOINT_ROUTE.exec(url.pathname) : null;
    if (!m) return plain(404, '404: Page Not Found');
    if (req.method !== 'POST') return plain(405, '405: Method Not Allowed');
    const [namespace, pod, container] = m.slice(1).map(decodedPath);
    if (namespace === undefined || pod === undefined || container === undefined)
      return plain(400, 'Bad Request');
    return o.checkpoint.checkpoint(namespace, pod, container, url.searchParams.getAll('timeout'));
  };
  return (req, res) => {
    // no body is read: the endpoint takes none
    req.resume();
    route(req).then(
      (answer) => send(res, answer),
      (e: unknown) => {
        o.log(`node agent API: ${e instanceof Error ? e.message : String(e)}`);
        if (!res.headersSent) send(res, plain(500, 'Internal Server Error'));
        else res.destroy();
      },
    );
  };
}
