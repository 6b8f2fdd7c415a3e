/**
 * What the audit step (modules/audit, begun in pipeline.ts) learns from the handlers, as kube's handlers tell
 * its audit context: the object a write decoded (LogRequestObject) and the object or Status each answer carries
 * (LogResponseObject, called by `send`). The observer rides on the reply itself (a WeakMap of every audited
 * response cost more: bench/audit); unaudited requests have none.
 */
import type { FastifyReply } from 'fastify';

export interface AuditObserver {
  requestDecoded(obj: unknown): void;
  responded(body: unknown): void;
}

const OBSERVER = Symbol('audit observer');
type Observed = FastifyReply & { [OBSERVER]?: AuditObserver };

/** The request's audit follows it: the handlers reach the same reply. */
export function observeAudit(reply: FastifyReply, observer: AuditObserver): void {
  (reply as Observed)[OBSERVER] = observer;
}

/** kube's LogRequestObject: a create's or update's object, as decoded. */
export function logRequestObject(r: { reply: FastifyReply }, obj: unknown): void {
  (r.reply as Observed)[OBSERVER]?.requestDecoded(obj);
}

/** kube's LogResponseObject */
export function logResponseObject(reply: FastifyReply, body: unknown): void {
  (reply as Observed)[OBSERVER]?.responded(body);
}
