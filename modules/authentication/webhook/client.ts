/**
 * The call to the token webhook: a TokenReview POSTed to the kubeconfig's server URL as kube's webhook client
 * sends it (the configured version, `spec.token`, `spec.audiences` when known), its answer's status read back.
 * Bounded: one deadline covers the whole review, retries included. Retried as kube's DefaultShouldRetry
 * retries (500, 504, 429, a Retry-After, a reset connection) with kube's backoff (500 ms, ×1.5, 5 tries).
 * An error never carries the token.
 */
import { isPlainObject } from '../../api/index.js';
import {
  WebhookError,
  WebhookTransport,
  type WebhookConnection,
  type WebhookVersion,
} from '../../webhook/index.js';

export type { WebhookVersion };

/** TokenReview's status as the webhook answered it (both versions have the same fields) */
export interface ReviewStatus {
  authenticated: boolean;
  user: { username: string; uid: string; groups: string[]; extra?: Record<string, string[]> };
  audiences: string[];
  error: string;
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
  private readonly transport: WebhookTransport;

  constructor(
    connection: WebhookConnection,
    private readonly version: WebhookVersion,
    timeoutMs: number,
  ) {
    this.transport = new WebhookTransport(connection, timeoutMs);
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
  review(token: string, audiences: readonly string[] | undefined): Promise<ReviewStatus> {
    return this.transport.post(this.body(token, audiences), reviewStatus);
  }

  close(): void {
    this.transport.close();
  }
}
