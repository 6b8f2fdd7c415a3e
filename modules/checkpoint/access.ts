/**
 * Who may call the node agent's HTTPS port, decided as the kubelet decides it (its KubeletConfiguration's
 * `authentication` and `authorization`): client certificates verified against the client CA (CN the user, O
 * the groups), bearer tokens judged by a TokenReview to the API server (answers kept for cacheTTL), anonymous
 * requests only when enabled; then AlwaysAllow, or a SubjectAccessReview to the API server for the kubelet's
 * attributes of the request (answers kept for the authorized and unauthorized TTLs).
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../api/index.js';
import {
  AuthenticatorUnion,
  CertificatePool,
  peerCertificates,
  TOKEN_REVIEW_PATH,
  TokenReviewClient,
  WebhookTokenAuthenticator,
  X509Authenticator,
  type Authenticator,
} from '../authentication/index.js';
import {
  AlwaysAllowAuthorizer,
  SUBJECT_ACCESS_REVIEW_PATH,
  WebhookAuthorizer,
  type Attributes,
  type Authorizer,
} from '../authorization/index.js';
import { atHostPath, WebhookTransport, type WebhookConnection } from '../webhook/index.js';

/** how long one review may take, retries included (kube's delegating default) */
const REVIEW_TIMEOUT_MS = 10_000;

export interface KubeletAccessOptions {
  nodeName: string;
  anonymous: boolean;
  /** authentication.x509.clientCAFile, read; `source` names it in errors */
  clientCa?: { pem: string; source: string };
  /** authentication.webhook: set when enabled */
  tokenReview?: { cacheTtlMs: number };
  authorization:
    { mode: 'AlwaysAllow' } | { mode: 'Webhook'; authorizedTtlMs: number; unauthorizedTtlMs: number };
  /** the API server, with the agent's credentials: where reviews go (needed by either webhook) */
  apiServer?: WebhookConnection;
  log: (message: string) => void;
}

export type AccessDecision = { allowed: true } | { allowed: false; status: 403 | 500; message: string };

const verbs: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** kube's isSubpath */
function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The kubelet's authorization attributes of a request to its API: nodes/<subresource> named after the node. */
export function nodeRequestAttributes(
  user: UserInfo,
  method: string,
  path: string,
  nodeName: string,
): Attributes {
  const subresource = under(path, '/stats')
    ? 'stats'
    : under(path, '/metrics')
      ? 'metrics'
      : under(path, '/logs')
        ? 'log'
        : under(path, '/checkpoint')
          ? 'checkpoint'
          : 'proxy';
  return {
    user,
    verb: verbs[method] ?? '',
    isResourceRequest: true,
    path,
    namespace: '',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'nodes',
    subresource,
    name: nodeName,
  };
}

export class KubeletAccess {
  private readonly authenticator: AuthenticatorUnion;
  private readonly authorizer: Authorizer;

  constructor(private readonly o: KubeletAccessOptions) {
    const authenticators: Authenticator[] = [];
    if (o.clientCa)
      authenticators.push(new X509Authenticator(new CertificatePool(o.clientCa.pem, o.clientCa.source)));
    if (o.tokenReview) {
      if (!o.apiServer) throw new Error('no client provided, cannot use webhook authentication');
      const client = new TokenReviewClient(
        atHostPath(o.apiServer, TOKEN_REVIEW_PATH),
        'v1',
        REVIEW_TIMEOUT_MS,
      );
      // the kubelet has no API audiences: the API server judges tokens for its own
      authenticators.push(
        new WebhookTokenAuthenticator(client, {
          cacheTtlMs: o.tokenReview.cacheTtlMs,
          sendAudiences: false,
          log: o.log,
        }),
      );
    }
    this.authenticator = new AuthenticatorUnion(authenticators, { anonymous: o.anonymous });
    if (o.authorization.mode === 'AlwaysAllow') {
      this.authorizer = new AlwaysAllowAuthorizer();
    } else {
      if (!o.apiServer) throw new Error('no client provided, cannot use webhook authorization');
      const transport = new WebhookTransport(
        atHostPath(o.apiServer, SUBJECT_ACCESS_REVIEW_PATH),
        REVIEW_TIMEOUT_MS,
      );
      this.authorizer = new WebhookAuthorizer(transport, {
        version: 'v1',
        authorizedTtlMs: o.authorization.authorizedTtlMs,
        unauthorizedTtlMs: o.authorization.unauthorizedTtlMs,
        selectors: false,
        log: o.log,
      });
    }
  }

  /** The caller; throws (a 401) when it is no one the configuration lets in. */
  authenticate(req: IncomingMessage, path: string): Promise<UserInfo> {
    return this.authenticator.authenticate({
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      peerCertificates: () => peerCertificates(req),
      path,
    });
  }

  /** The kubelet's answer for `user` calling `method path`: allowed, or its 403 (or 500) text. */
  async authorize(user: UserInfo, method: string, path: string): Promise<AccessDecision> {
    const a = nodeRequestAttributes(user, method, path, this.o.nodeName);
    const what = `user=${user.name}, verb=${a.verb}, resource=${a.resource}, subresource=${a.subresource}`;
    const verdict = await this.authorizer.authorize(a);
    if (verdict.decision === 'allow') return { allowed: true };
    if (verdict.evaluationError) {
      this.o.log(`Authorization error (${what}): ${verdict.evaluationError}`);
      return { allowed: false, status: 500, message: `Authorization error (${what})` };
    }
    return { allowed: false, status: 403, message: `Forbidden (${what})` };
  }
}
