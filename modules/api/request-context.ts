/**
 * One request's context, made by the pipeline and handed to every step after it: handlers, the generic store,
 * strategy hooks and admission plugins. Internal callers (controllers) make one with `systemContext`.
 */
import { emptyRequestInfo, type RequestInfo } from './request-info.js';
import type { UserInfo } from './user.js';

export interface RequestContext {
  readonly info: RequestInfo;
  /** who the request acts as: the authenticated user, or the one it impersonates */
  user: UserInfo;
  /** the authenticated user, when the request impersonates `user` */
  impersonator?: UserInfo;
  /** `Warning` header texts, sent with the response */
  readonly warnings: string[];
  /** annotations for the audit event of this request */
  readonly auditAnnotations: Record<string, string>;
  /** dryRun=All: every step runs, nothing is persisted */
  dryRun: boolean;
  /** the field manager the write is recorded under (query `fieldManager`, else from the User-Agent) */
  fieldManager?: string;
  readonly userAgent?: string;
}

export function requestContext(info: RequestInfo, user: UserInfo, userAgent?: string): RequestContext {
  return { info, user, warnings: [], auditAnnotations: {}, dryRun: false, userAgent };
}

/** The server's own identity (kube's loopback client, system:apiserver in system:masters). */
export const systemUser: UserInfo = Object.freeze({
  name: 'system:apiserver',
  uid: '',
  groups: Object.freeze(['system:masters', 'system:authenticated']) as string[],
});

/** A context for writes the server makes itself (controllers, start-up). */
export function systemContext(): RequestContext {
  return requestContext(emptyRequestInfo(), systemUser);
}
