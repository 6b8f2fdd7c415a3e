/**
 * POST pods/<name>/binding (core/v1 Binding), kube's BindingREST: sets the pod's spec.nodeName once, with the
 * Binding's annotations, and marks it PodScheduled. A pod already bound, or being deleted, answers 409.
 */
import { ApiError, fieldError, nowTimestamp, type FieldError, type KubeObject } from '../api/index.js';
import type { GenericStore } from '../registry/index.js';
import { writeOptions, type ResourceRequest } from './request.js';
import { addWarnings } from './respond.js';
import { sendCreatedStatus, subresourceBody } from './subresource-body.js';

type Obj = Record<string, unknown>;
const objAt = (v: unknown): Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};

/** kube's ValidatePodBinding. */
function bindingErrors(binding: KubeObject): FieldError[] {
  const target = objAt(binding.target);
  const errors: FieldError[] = [];
  if (target.kind && target.kind !== 'Node')
    errors.push(fieldError.notSupported('target.kind', target.kind, ['Node', '<empty>']));
  if (!target.name) errors.push(fieldError.required('target.name'));
  return errors;
}

const bindingGR = { group: '', resource: 'pods/binding' };

/** The pod bound to `node`: the PodScheduled condition True, the Binding's annotations added. */
function bound(pod: KubeObject, node: string, annotations: Record<string, string> | undefined): KubeObject {
  const next = structuredClone(pod);
  const spec = objAt(next.spec);
  const name = next.metadata.name ?? '';
  if (next.metadata.deletionTimestamp)
    throw ApiError.conflict(bindingGR, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  if (spec.nodeName)
    throw ApiError.conflict(
      bindingGR,
      name,
      `pod ${name} is already assigned to node "${String(spec.nodeName)}"`,
    );
  spec.nodeName = node;
  next.spec = spec;
  if (annotations && Object.keys(annotations).length > 0)
    next.metadata.annotations = { ...next.metadata.annotations, ...annotations };
  const status = objAt(next.status);
  const conditions = Array.isArray(status.conditions) ? status.conditions.map(objAt) : [];
  const scheduled = {
    type: 'PodScheduled',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: nowTimestamp(),
  };
  const at = conditions.findIndex((c) => c.type === 'PodScheduled');
  if (at < 0) conditions.push(scheduled);
  else if (conditions[at].status !== 'True') conditions[at] = scheduled;
  status.conditions = conditions;
  next.status = status;
  return next;
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
      const next = bound(pod, node, binding.metadata.annotations);
      if (resourceVersion) next.metadata.resourceVersion = resourceVersion;
      return next;
    },
    options,
  );
  addWarnings(r.reply, [...warnings, ...r.ctx.warnings]);
  return sendCreatedStatus(r);
}
