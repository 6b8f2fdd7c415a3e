/**
 * POST pods/<name>/binding (core/v1 Binding), kube's BindingREST: sets the pod's spec.nodeName once, with the
 * Binding's annotations, and marks it PodScheduled. A pod already bound, or being deleted, answers 409.
 */
import { ApiError, fieldError, type FieldError, type KubeObject } from '../api/index.js';
import { boundPod, objAt } from '../kinds/index.js';
import type { GenericStore } from '../registry/index.js';
import { writeOptions, type ResourceRequest } from './request.js';
import { addWarnings } from './respond.js';
import { sendCreatedStatus, subresourceBody } from './subresource-body.js';

/** kube's ValidatePodBinding. */
function bindingErrors(binding: KubeObject): FieldError[] {
  const target = objAt(binding.target);
  const errors: FieldError[] = [];
  if (target.kind && target.kind !== 'Node')
    errors.push(fieldError.notSupported('target.kind', target.kind, ['Node', '<empty>']));
  if (!target.name) errors.push(fieldError.required('target.name'));
  return errors;
}

export async function createBinding(generic: GenericStore, r: ResourceRequest): Promise<unknown> {
  const { info, def } = r;
  const options = writeOptions(r);
  const { object: binding, warnings } = subresourceBody(r, '', 'Binding');
  if (binding.metadata.name !== info.name)
    throw ApiError.badRequest('name in URL does not match name in Binding object');
  const errors = bindingErrors(binding);
  if (errors.length > 0) throw ApiError.invalid('Binding', '', info.name, errors);
  const node = String(objAt(binding.target).name);
  const { uid, resourceVersion } = binding.metadata;
  await generic.update(
    r.ctx,
    def,
    info.namespace,
    info.name,
    (current) => {
      const pod = current!;
      // the Binding's uid and resourceVersion are preconditions on the pod
      if (uid && pod.metadata.uid !== uid)
        throw ApiError.conflict(
          { group: '', resource: 'pods' },
          info.name,
          `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata.uid ?? ''}`,
        );
      const next = boundPod(pod, node, binding.metadata.annotations);
      if (resourceVersion) next.metadata.resourceVersion = resourceVersion;
      return next;
    },
    options,
  );
  addWarnings(r.reply, [...warnings, ...r.ctx.warnings]);
  return sendCreatedStatus(r);
}
