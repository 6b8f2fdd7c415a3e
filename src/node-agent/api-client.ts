/**
 * The node agent's client of the API server, from its kubeconfig (read by the webhook module's reader: a
 * client certificate, a token or token file, a CA). JSON only; connections kept alive and shared by every
 * simulated node of one process. Answers of any status come back to the caller, who knows what a 404 or a
 * 409 means for it; only an unreachable server or a timeout is thrown.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { atHostPath, bearerOf, type WebhookConnection } from '../../modules/webhook/index.js';
import { servedRelease } from '../../modules/api/index.js';

export interface ApiAnswer {
  status: number;
  /** the decoded JSON body (an object, or a Status on failure); undefined when the body was not JSON */
  body: any;
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: any;
}

export interface WatchHandle {
  /** resolves when the stream ends (by the server, an error, or stop()) */
  readonly ended: Promise<void>;
  stop(): void;
}

const USER_AGENT = `pgkube-node-agent/v${servedRelease.major}.${servedRelease.minor}.${servedRelease.patch}`;

export class ApiClient {
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;

  constructor(
    private readonly connection: WebhookConnection,
    private readonly timeoutMs = 10_000,
    maxSockets = 64,
  ) {
    const https = connection.url.protocol === 'https:';
    this.send = https ? httpsRequest : httpRequest;
    this.agent = https
      ? new HttpsAgent({
          keepAlive: true,
          noDelay: true,
          maxSockets,
          ca: connection.ca,
          cert: connection.cert,
          key: connection.key,
          rejectUnauthorized: !connection.insecureSkipTlsVerify,
          servername: connection.serverName,
          minVersion: 'TLSv1.2',
        })
      : new HttpAgent({ keepAlive: true, noDelay: true, maxSockets });
  }

  private headers(body?: { text: string; contentType: string }): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
    // a length always: Node sends a DELETE's body neither chunked nor framed without one
    if (body) {
      headers['content-type'] = body.contentType;
      headers['content-length'] = String(Buffer.byteLength(body.text));
    }
    const token = bearerOf(this.connection);
    const { basic } = this.connection;
    if (token) headers.authorization = `Bearer ${token}`;
    else if (basic)
      headers.authorization = `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}`;
    return headers;
  }

  /** One request; `body` is sent as JSON (or as the patch type named). */
  request(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<ApiAnswer> {
    const { url } = atHostPath(this.connection, path);
    const text = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<ApiAnswer>((resolve, reject) => {
      const req = this.send(
        url,
        {
          method,
          agent: this.agent,
          headers: this.headers(text === undefined ? undefined : { text, contentType }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.once('error', reject);
          res.once('end', () => resolve({ status: res.statusCode ?? 0, body: decode(chunks) }));
        },
      );
      req.setTimeout(this.timeoutMs, () =>
        req.destroy(new Error(`${method} ${path}: no answer within ${this.timeoutMs} ms`)),
      );
      req.once('error', reject);
      req.end(text);
    });
  }

  /** A watch (`path` carries `watch=true` and any selectors); events arrive in order until the stream ends. */
  watch(path: string, onEvent: (e: WatchEvent) => void): WatchHandle {
    const { url } = atHostPath(this.connection, path);
    let stop = () => {};
    const ended = new Promise<void>((resolve) => {
      const req = this.send(url, { method: 'GET', agent: this.agent, headers: this.headers() }, (res) => {
        if ((res.statusCode ?? 0) !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.once('end', () => {
            onEvent({ type: 'ERROR', object: decode(chunks) ?? { code: res.statusCode } });
            resolve();
          });
          return;
        }
        readLines(res, (line) => onEvent(JSON.parse(line) as WatchEvent));
        res.once('end', resolve);
        res.once('error', () => resolve());
        res.once('close', resolve);
      });
      req.once('error', () => resolve());
      stop = () => req.destroy();
      req.end();
    });
    return { ended, stop: () => stop() };
  }

  close(): void {
    this.agent.destroy();
  }
}

function decode(chunks: Buffer[]): any {
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** kube's JSON watch stream: one event per line */
function readLines(res: IncomingMessage, onLine: (line: string) => void): void {
  let pending = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line) onLine(line);
    }
  });
}
