/**
 * The one way the aggregation layer writes an APIService it keeps: from the stored object (judged again there,
 * not on a cached copy), as the system, and without retrying a NotFound or Conflict (the informer's next event
 * brings the name back to its queue).
 */
import { ApiError, systemContext, type KubeObject } from '../api/index.js';
import type { APIService } from '../kinds/index.js';
import type { GenericStore, ResourceDefinition } from '../registry/index.js';
import { ignore } from './ignore.js';

export async function updateApiService(
  generic: GenericStore,
  kind: ResourceDefinition,
  name: string,
  /** the object to write, or `stored` itself for no change */
  change: (stored: APIService) => KubeObject,
  subresource?: 'status',
): Promise<void> {
  await generic
    .update(
      systemContext(),
      kind,
      '',
      name,
      (stored) => {
        if (!stored) throw ApiError.notFound({ group: kind.group, resource: kind.resource }, name);
        return change(stored as APIService);
      },
      subresource ? { subresource } : {},
    )
    .catch(ignore('NotFound', 'Conflict'));
}
