/** Storage errors → kube Status errors, for one kind. */
import { ApiError, type GroupResource } from '../api/index.js';
import { AlreadyExistsError, ConflictError, NotFoundError, UnavailableError } from '../storage/index.js';

export const MODIFIED_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

export function toApiError(error: unknown, gr: GroupResource, name: string): unknown {
  if (error instanceof NotFoundError) return ApiError.notFound(gr, name);
  if (error instanceof AlreadyExistsError) return ApiError.alreadyExists(gr, name);
  if (error instanceof ConflictError) return ApiError.conflict(gr, name, MODIFIED_MESSAGE);
  if (error instanceof UnavailableError)
    return ApiError.unavailable(`storage is unavailable: ${error.message}`);
  return error;
}
