/**
 * The call to the token webhook: a TokenReview POSTed to the kubeconfig's server URL as kube's webhook client
 * sends it (the configured version, `spec.token`, `spec.audiences` when known), its answer's status read back.
 * Bounded: one deadline covers the whole review, retries included. Retried as kube's DefaultShouldRetry
 * retries (500, 504, 429, a Retry-After, a reset connection) with kube's backoff (500 ms, ×1.5, 5 tries).
 * An error never carries the token.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isPlainObject, servedRelease } from '../../api/index.js';
import type { WebhookConnection } from './kubeconfig.js';

export type WebhookVersion = 'v1' | 'v1beta1';

/** TokenReview's status as the webhook answered it (both versions have the same fields) */
export interface ReviewStatus {
  authenticated: boolean;
  user: { username: string; uid: string; groups: string[]; extra?: Record<string, string[]> };
  audiences: string[];
  error: string;
}

/** most bytes of an answer read; a TokenReview is a few hundred */
const MAX_ANSWER_BYTES = 1024 * 1024;
const BACKOFF = { initialMs: 500, factor: 1.5, jitter: 0.2, tries: 5 };
const USER_AGENT = `pgkube/v${servedRelease.major}.${servedRelease.minor}.${servedRelease.patch}`;

class WebhookError extends Error {
  constructor(
    message: string,
    readonly retry = false,
  ) {
    super(message);
  }
}

/** kube's DefaultShouldRetry on an HTTP answer: InternalError, Timeout, TooManyRequests, or a Retry-After */
function retriable(res: IncomingMessage): boolean {
  const code = res.statusCode ?? 0;
  return code === 500 || code === 504 || code === 429 || res.headers['retry-after'] !== undefined;
}

function strings(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new WebhookError(`malformed TokenReview answer: ${field} is not a list of strings`);
  return v as string[];
}

function text(v: unknown, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new WebhookError(`malformed TokenReview answer: ${field} is not a string`);
  return v;
}

/** The answer's status, checked as kube's decoder would read it into a TokenReview. */
function reviewStatus(body: string): ReviewStatus {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    throw new WebhookError('malformed TokenReview answer: not JSON');
  }
  if (!isPlainObject(answer)) throw new WebhookError('malformed TokenReview answer: not an object');
  const apiVersion = answer.apiVersion;
  if (
    answer.kind !== 'TokenReview' ||
    !['authentication.k8s.io/v1', 'authentication.k8s.io/v1beta1'].includes(String(apiVersion))
  )
    throw new WebhookError(
      `malformed TokenReview answer: kind ${JSON.stringify(answer.kind)} of ${JSON.stringify(apiVersion)}`,
    );
  const status = isPlainObject(answer.status) ? answer.status : {};
  const user = isPlainObject(status.user) ? status.user : {};
  let extra: Record<string, string[]> | undefined;
  if (user.extra !== undefined && user.extra !== null) {
    if (!isPlainObject(user.extra)) throw new WebhookError('malformed TokenReview answer: status.user.extra');
    extra = {};
    for (const [k, v] of Object.entries(user.extra)) extra[k] = strings(v, `status.user.extra[${k}]`);
  }
  if (status.authenticated !== undefined && typeof status.authenticated !== 'boolean')
    throw new WebhookError('malformed TokenReview answer: status.authenticated is not a boolean');
  return {
    authenticated: status.authenticated === true,
    user: {
      username: text(user.username, 'status.user.username'),
      uid: text(user.uid, 'status.user.uid'),
      groups: strings(user.groups, 'status.user.groups'),
      extra,
    },
    audiences: strings(status.audiences, 'status.audiences'),
    error: text(status.error, 'status.error'),
  };
}

export class TokenReviewClient {
  private readonly agent: HttpAgent;

  constructor(
    private readonly connection: WebhookConnection,
    private readonly version: WebhookVersion,
    private readonly timeoutMs: number,
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

  /** kube's body: `status.user` and a null creationTimestamp are there because Go writes them */
  body(token: string, audiences: readonly string[] | undefined): string {
    const spec: Record<string, unknown> = { token };
    if (audiences?.length) spec.audiences = audiences;
    return JSON.stringify({
      kind: 'TokenReview',
      apiVersion: `authentication.k8s.io/${this.version}`,
      metadata: { creationTimestamp: null },
      spec,
      status: { user: {} },
    });
  }

  /** The webhook's answer, or a WebhookError (down, timed out, not 2xx, malformed) once retries are spent. */
  async review(token: string, audiences: readonly string[] | undefined): Promise<ReviewStatus> {
    const deadline = Date.now() + this.timeoutMs;
    const body = this.body(token, audiences);
    let wait = BACKOFF.initialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.post(body, deadline);
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

  private post(body: string, deadline: number): Promise<ReviewStatus> {
    const { url, token, basic } = this.connection;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, */*',
      'user-agent': USER_AGENT,
      'content-length': String(Buffer.byteLength(body)),
    };
    if (token) headers.authorization = `Bearer ${token}`;
    else if (basic)
      headers.authorization = `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}`;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<ReviewStatus>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          req.destroy(new WebhookError(`no answer within ${this.timeoutMs} ms`));
        },
        Math.max(0, deadline - Date.now()),
      );
      const fail = (e: Error & { code?: string }) => {
        clearTimeout(timer);
        if (e instanceof WebhookError) return reject(e);
        // Node's messages name the address, never the request's headers or body
        reject(new WebhookError(`request failed: ${e.message}`, e.code === 'ECONNRESET'));
      };
      const req = send(url, { method: 'POST', agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new WebhookError('answer larger than 1 MiB'));
          else chunks.push(c);
        });
        res.on('error', fail);
        res.on('end', () => {
          clearTimeout(timer);
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299)
            return reject(new WebhookError(`the webhook answered ${code}`, retriable(res)));
          try {
            resolve(reviewStatus(Buffer.concat(chunks).toString('utf8')));
          } catch (e) {
            reject(e);
          }
        });
      });
      req.on('error', fail);
      req.end(body);
    });
  }
}
