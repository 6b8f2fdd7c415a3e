/** Storage errors → kube Status errors, for one kind. */
import { ApiError, type GroupResource } from '../api/index.js';
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  StorageTimeoutError,
  UnavailableError,
} from '../storage/index.js';

export const MODIFIED_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

/** clients retry after this many seconds (Retry-After) when storage is down or slow */
const RETRY_AFTER_S = 1;

/**
 * A storage failure that is nobody's fault but the database's: 503 (unreachable) or 504 (no answer in time),
 * with Retry-After. The message is ours alone: the driver's text stays in the error's `cause`.
 */
export function storageFailure(error: unknown): ApiError | undefined {
  if (error instanceof UnavailableError)
    return ApiError.unavailable('storage is unavailable, please try again later', RETRY_AFTER_S);
  if (error instanceof StorageTimeoutError)
    return ApiError.timeout('storage did not answer in time, please try again later', RETRY_AFTER_S);
  return undefined;
}

export function toApiError(error: unknown, gr: GroupResource, name: string): unknown {
  if (error instanceof NotFoundError) return ApiError.notFound(gr, name);
  if (error instanceof AlreadyExistsError) return ApiError.alreadyExists(gr, name);
  if (error instanceof ConflictError) return ApiError.conflict(gr, name, MODIFIED_MESSAGE);
  return storageFailure(error) ?? error;
}
