/** Storage errors → kube Status errors, for one kind. */
import { ApiError, type GroupResource } from '../api/index.js';
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  RequiredObjectDeletingError,
  RequiredObjectMissingError,
  UnavailableError,
} from '../storage/index.js';

export const MODIFIED_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

export function toApiError(error: unknown, gr: GroupResource, name: string): unknown {
  if (error instanceof NotFoundError) return ApiError.notFound(gr, name);
  if (error instanceof AlreadyExistsError) return ApiError.alreadyExists(gr, name);
  if (error instanceof ConflictError) return ApiError.conflict(gr, name, MODIFIED_MESSAGE);
  // a create's required object is its namespace (the only one generic-store.ts asks for)
  if (error instanceof RequiredObjectMissingError)
    return ApiError.notFound({ group: '', resource: 'namespaces' }, error.key.name);
  if (error instanceof RequiredObjectDeletingError) {
    return new ApiError(
      403,
      'Forbidden',
      `${gr.group ? `${gr.resource}.${gr.group}` : gr.resource} "${name}" is forbidden: unable to create new content in namespace ${error.key.name} because it is being terminated`,
      {
        name,
        group: gr.group || undefined,
        kind: gr.resource,
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${error.key.name} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      },
    );
  }
  if (error instanceof UnavailableError)
    return ApiError.unavailable(`storage is unavailable: ${error.message}`);
  return error;
}
