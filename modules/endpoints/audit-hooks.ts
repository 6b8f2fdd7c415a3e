/**
 * What the audit step (modules/audit, begun in pipeline.ts) learns from the handlers, as kube's handlers tell
 * its audit context: the object a write decoded (LogRequestObject) and the object or Status each answer carries
 * (LogResponseObject, called by `send`). Unaudited requests have no observer: one WeakMap lookup.
 */
import type { FastifyReply } from 'fastify';

export interface AuditObserver {
  requestDecoded(obj: unknown): void;
  responded(body: unknown): void;
}

const observers = new WeakMap<object, AuditObserver>();

/** The request's audit follows it: keyed by the raw response, which request and reply both reach. */
export function observeAudit(reply: FastifyReply, observer: AuditObserver): void {
  observers.set(reply.raw, observer);
}

/** kube's LogRequestObject: a create's or update's object, as decoded. */
export function logRequestObject(r: { reply: FastifyReply }, obj: unknown): void {
  observers.get(r.reply.raw)?.requestDecoded(obj);
}

/** kube's LogResponseObject */
export function logResponseObject(reply: FastifyReply, body: unknown): void {
  observers.get(reply.raw)?.responded(body);
}
