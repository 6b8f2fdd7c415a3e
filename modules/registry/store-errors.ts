/** Storage errors → kube Status errors, for one kind. */
import { ApiError, type GroupResource, type StatusCause } from '../api/index.js';
import {
  AlreadyExistsError,
  ConflictError,
  CorruptListError,
  CorruptObjectError,
  NotFoundError,
  StorageTimeoutError,
  UnavailableError,
  storageKeyText,
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

/**
 * A read that met corrupt rows, as kube v1.32 answers it (AllowUnsafeMalformedObjectDeletion's storage
 * errors): one object is a 500 InternalError carrying the StorageError text that names its key; a list is a
 * 500 StorageReadError naming every corrupt key as a cause (at most 100, then one TooMany cause).
 */
export function corruptionFailure(error: unknown, gr: GroupResource): ApiError | undefined {
  if (error instanceof CorruptObjectError) return ApiError.internal(error.message);
  if (!(error instanceof CorruptListError)) return undefined;
  const causes: StatusCause[] = error.errors.map((e) => ({
    reason: 'UnexpectedServerResponse',
    message: e.message,
    field: storageKeyText(e.key),
  }));
  if (error.truncated) causes.push({ reason: 'TooMany', message: 'too many errors, the list is truncated' });
  const message = `failed to read one or more ${gr.group ? `${gr.resource}.${gr.group}` : gr.resource} from the storage`;
  return new ApiError(500, 'StorageReadError', message, {
    name: 'list',
    group: gr.group || undefined,
    kind: gr.resource,
    causes,
  });
}

export function toApiError(error: unknown, gr: GroupResource, name: string): unknown {
  const corrupt = corruptionFailure(error, gr);
  if (corrupt) return corrupt;
  if (error instanceof NotFoundError) return ApiError.notFound(gr, name);
  if (error instanceof AlreadyExistsError) return ApiError.alreadyExists(gr, name);
  if (error instanceof ConflictError) return ApiError.conflict(gr, name, MODIFIED_MESSAGE);
  return storageFailure(error) ?? error;
}
