/** The answers a controller's write may get that mean "nothing left to do", as kube's controllers read them. */
import { ApiError } from '../api/index.js';

const hasReason = (e: unknown, code: number, reason: string): boolean =>
  e instanceof ApiError && e.code === code && e.reason === reason;

export const isNotFound = (e: unknown): boolean => hasReason(e, 404, 'NotFound');
export const isAlreadyExists = (e: unknown): boolean => hasReason(e, 409, 'AlreadyExists');
export const isConflict = (e: unknown): boolean => hasReason(e, 409, 'Conflict');

/** kube's HasStatusCause(err, NamespaceTerminatingCause): a create in a namespace being deleted. */
export function isNamespaceTerminating(e: unknown): boolean {
  return e instanceof ApiError && !!e.details?.causes?.some((c) => c.reason === 'NamespaceTerminating');
}
