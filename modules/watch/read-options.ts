/**
 * kube's resourceVersion tables for get, list and watch: which combinations are valid and what they mean.
 * Invalid cells are 400s (spec: "invalid resourceVersion/continue combination").
 */
import { ApiError, queryFlag } from '../api/index.js';

export type ListSemantics =
  | { kind: 'mostRecent' }
  | { kind: 'any' }
  | { kind: 'notOlderThan'; rv: number }
  | { kind: 'exact'; rv: number }
  | { kind: 'continue'; token: string };

export interface ListQuery {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: string;
  continue?: string;
}

function parseRv(value: string): number {
  const rv = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(rv)) {
    throw ApiError.badRequest(`invalid resource version: "${value}"`);
  }
  return rv;
}

export function getSemantics(resourceVersion: string | undefined): ListSemantics {
  if (!resourceVersion) return { kind: 'mostRecent' };
  if (resourceVersion === '0') return { kind: 'any' };
  return { kind: 'notOlderThan', rv: parseRv(resourceVersion) };
}

export function listSemantics(q: ListQuery): ListSemantics {
  const rv = q.resourceVersion || undefined;
  const match = q.resourceVersionMatch || undefined;
  const limited = q.limit !== undefined && q.limit !== '' && Number(q.limit) > 0;
  if (match !== undefined && match !== 'Exact' && match !== 'NotOlderThan') {
    throw ApiError.badRequest(
      `resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan", ""`,
    );
  }
  if (q.continue) {
    if (rv !== undefined && rv !== '0') {
      throw ApiError.badRequest('specifying resource version is not allowed when using continue');
    }
    if (match !== undefined)
      throw ApiError.badRequest('resourceVersionMatch is forbidden when continue is provided');
    return { kind: 'continue', token: q.continue };
  }
  if (match === undefined) {
    if (rv === undefined) return { kind: 'mostRecent' };
    if (rv === '0') return { kind: 'any' };
    return limited ? { kind: 'exact', rv: parseRv(rv) } : { kind: 'notOlderThan', rv: parseRv(rv) };
  }
  if (rv === undefined) {
    throw ApiError.badRequest(
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
  }
  if (match === 'Exact') {
    if (rv === '0') {
      throw ApiError.badRequest(
        'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      );
    }
    return { kind: 'exact', rv: parseRv(rv) };
  }
  if (rv === '0') return { kind: 'any' };
  return { kind: 'notOlderThan', rv: parseRv(rv) };
}

export interface WatchQuery {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  sendInitialEvents?: string;
  allowWatchBookmarks?: string;
}

export type WatchStart =
  /** initial ADDED events of a consistent (most recent) snapshot, then changes */
  | { kind: 'mostRecent'; initialEventsEnd: boolean }
  /** initial ADDED events from the cache, at least at `rv` */
  | { kind: 'any'; rv: number; initialEventsEnd: boolean }
  /** changes after `rv` only (undefined: after the cache's current revision) */
  | { kind: 'exact'; rv?: number };

/** kube's bool conversion of a query parameter */
const isTrue = queryFlag;

export function watchStart(q: WatchQuery): WatchStart {
  const rv = q.resourceVersion || undefined;
  const match = q.resourceVersionMatch || undefined;
  // present, even empty, is set: kube reads `sendInitialEvents=` (and a bare `sendInitialEvents`) as true
  if (q.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') {
      throw ApiError.badRequest(
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      );
    }
    if (!isTrue(q.allowWatchBookmarks)) {
      throw ApiError.badRequest(
        'allowWatchBookmarks: Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true',
      );
    }
    if (!isTrue(q.sendInitialEvents)) {
      // no initial state: behaves like a plain watch from the given (or current) revision
      return { kind: 'exact', rv: rv && rv !== '0' ? parseRv(rv) : undefined };
    }
    if (rv === undefined) return { kind: 'mostRecent', initialEventsEnd: true };
    return { kind: 'any', rv: rv === '0' ? 0 : parseRv(rv), initialEventsEnd: true };
  }
  if (match !== undefined) {
    throw ApiError.badRequest(
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
  }
  if (rv === undefined) return { kind: 'mostRecent', initialEventsEnd: false };
  if (rv === '0') return { kind: 'any', rv: 0, initialEventsEnd: false };
  return { kind: 'exact', rv: parseRv(rv) };
}
