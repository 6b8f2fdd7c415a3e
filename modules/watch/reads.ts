/**
 * Reads by resourceVersion: "Most recent" goes to PostgreSQL (consistent); "Any", "Not older than" and "Exact"
 * are served from the watch cache once it has caught up with the requested revision.
 */
import { ApiError } from '../api/index.js';
import type { WatchCache } from './watch-cache.js';

/** how long a read for a revision the cache has not reached yet may wait */
export const TOO_LARGE_WAIT_MS = 3000;

export async function awaitRevision(cache: WatchCache, rv: number): Promise<void> {
  if (await cache.waitFor(rv, TOO_LARGE_WAIT_MS)) return;
  throw new ApiError(
    504,
    'Timeout',
    `Timeout: Too large resource version: ${rv}, current: ${cache.rv}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
    { 'Retry-After': '1' },
  );
}

export function tooOld(rv: number, oldest: number): ApiError {
  return ApiError.gone(`too old resource version: ${rv} (${oldest})`);
}
