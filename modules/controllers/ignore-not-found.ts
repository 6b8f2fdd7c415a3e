import { ApiError } from '../api/index.js';

/** A controller's write that finds its object gone (404) or changed meanwhile (409) has nothing left to do. */
export function ignoreNotFound(e: unknown): void {
  if (e instanceof ApiError && (e.code === 404 || e.code === 409)) return;
  throw e;
}
