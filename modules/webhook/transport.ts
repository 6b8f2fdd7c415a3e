/**
 * One JSON POST to a webhook named by a kubeconfig, as kube's webhook clients make it: one deadline covers
 * the whole call, retries included; retried as kube's DefaultShouldRetry retries (500, 504, 429, a
 * Retry-After, a reset connection) with kube's backoff (500 ms, ×1.5, 5 tries). An error never carries the
 * request's body or credentials: Node's messages name the address only.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { servedRelease } from '../api/index.js';
import { atHostPath } from './host-path.js';
import type { WebhookConnection } from './kubeconfig.js';
import { fileToken } from './token-file.js';

/** The bearer token a connection sends: its own, or its token file's current one. */
export function bearerOf(connection: WebhookConnection): string | undefined {
  return connection.token ?? (connection.tokenFile ? fileToken(connection.tokenFile) : undefined);
}

/** most bytes of an answer read; a review is a few hundred */
const MAX_ANSWER_BYTES = 1024 * 1024;
const BACKOFF = { initialMs: 500, factor: 1.5, jitter: 0.2, tries: 5 };
const USER_AGENT = `pgkube/v${servedRelease.major}.${servedRelease.minor}.${servedRelease.patch}`;

export class WebhookError extends Error {
  constructor(
    message: string,
    readonly retry = false,
    /** the HTTP code of a non-2xx answer */
    readonly status?: number,
    /** the message of the Status a non-2xx answer carried, if it was one */
    readonly statusMessage?: string,
  ) {
    super(message);
  }
}

/** kube's DefaultShouldRetry on an HTTP answer: InternalError, Timeout, TooManyRequests, or a Retry-After */
function retriable(res: IncomingMessage): boolean {
  const code = res.statusCode ?? 0;
  return code === 500 || code === 504 || code === 429 || res.headers['retry-after'] !== undefined;
}

/** An API server's answer is a Status whose message says why (a webhook's need not be) */
function statusMessage(body: string): string | undefined {
  try {
    const status: unknown = JSON.parse(body);
    if (typeof status === 'object' && status !== null && (status as { kind?: unknown }).kind === 'Status') {
      const message = (status as { message?: unknown }).message;
      return typeof message === 'string' ? message : undefined;
    }
  } catch {
    // not JSON: no message
  }
  return undefined;
}

export class WebhookTransport {
  private readonly agent: HttpAgent;

  constructor(
    private readonly connection: WebhookConnection,
    private readonly timeoutMs: number,
    /** most bytes of an answer read (reviews are small; converted lists are not) */
    private readonly maxAnswerBytes = MAX_ANSWER_BYTES,
  ) {
    const tls = {
      ca: connection.ca,
      cert: connection.cert,
      key: connection.key,
      rejectUnauthorized: !connection.insecureSkipTlsVerify,
      servername: connection.serverName,
      minVersion: 'TLSv1.2' as const,
    };
    this.agent =
      connection.url.protocol === 'https:'
        ? new HttpsAgent({ keepAlive: true, ...tls })
        : new HttpAgent({ keepAlive: true });
  }

  /**
   * POSTs `body` and gives the 2xx answer's body read by `read`, or a WebhookError (down, timed out, not 2xx,
   * unreadable) once retries are spent.
   */
  async post<T>(body: string, read: (answer: string) => T): Promise<T> {
    return this.send('POST', this.connection.url, body, read);
  }

  /**
   * GETs `path` on the kubeconfig's server (after the server URL's own path, as client-go appends it), with the
   * same deadline and retries; a non-2xx answer is a WebhookError with its `status`.
   */
  async get<T>(path: string, read: (answer: string) => T): Promise<T> {
    return this.send('GET', atHostPath(this.connection, path).url, undefined, read);
  }

  /** Any request to `path` on the kubeconfig's server (a client of the host's API: apply, delete). */
  async request<T>(
    method: string,
    path: string,
    body: { text: string; contentType: string } | undefined,
    read: (answer: string) => T,
  ): Promise<T> {
    return this.send(method, atHostPath(this.connection, path).url, body, read);
  }

  private async send<T>(
    method: string,
    url: URL,
    sent: string | { text: string; contentType: string } | undefined,
    read: (answer: string) => T,
  ): Promise<T> {
    const body = typeof sent === 'string' ? { text: sent, contentType: 'application/json' } : sent;
    const deadline = Date.now() + this.timeoutMs;
    let wait = BACKOFF.initialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return read(await this.once(method, url, body, deadline));
      } catch (e) {
        const err = e instanceof WebhookError ? e : new WebhookError(String(e));
        const pause = wait * (1 + Math.random() * BACKOFF.jitter);
        if (!err.retry || attempt >= BACKOFF.tries || Date.now() + pause >= deadline) throw err;
        await new Promise((r) => setTimeout(r, pause));
        wait *= BACKOFF.factor;
      }
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private once(
    method: string,
    url: URL,
    body: { text: string; contentType: string } | undefined,
    deadline: number,
  ): Promise<string> {
    const { basic } = this.connection;
    const token = bearerOf(this.connection);
    const headers: Record<string, string> = {
      accept: 'application/json, */*',
      'user-agent': USER_AGENT,
    };
    if (body !== undefined) {
      headers['content-type'] = body.contentType;
      headers['content-length'] = String(Buffer.byteLength(body.text));
    }
    if (token) headers.authorization = `Bearer ${token}`;
    else if (basic)
      headers.authorization = `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}`;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          req.destroy(new WebhookError(`no answer within ${this.timeoutMs} ms`));
        },
        Math.max(0, deadline - Date.now()),
      );
      const fail = (e: Error & { code?: string }) => {
        clearTimeout(timer);
        if (e instanceof WebhookError) return reject(e);
        reject(new WebhookError(`request failed: ${e.message}`, e.code === 'ECONNRESET'));
      };
      const req = send(url, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > this.maxAnswerBytes) {
            req.destroy(new WebhookError(`answer larger than ${this.maxAnswerBytes} bytes`));
          } else chunks.push(c);
        });
        res.on('error', fail);
        res.on('end', () => {
          clearTimeout(timer);
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299)
            return reject(
              new WebhookError(
                `the webhook answered ${code}`,
                retriable(res),
                code,
                statusMessage(Buffer.concat(chunks).toString('utf8')),
              ),
            );
          resolve(Buffer.concat(chunks).toString('utf8'));
        });
      });
      req.on('error', fail);
      req.end(body?.text);
    });
  }
}
