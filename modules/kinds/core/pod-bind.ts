/**
 * What binding a pod to a node changes (kube's BindingREST, shared by pods/binding and the in-process
 * scheduler): spec.nodeName set once, the Binding's annotations added, the PodScheduled condition True. A pod
 * already bound, or being deleted, is a 409.
 */
import { ApiError, nowTimestamp, type KubeObject } from '../../api/index.js';
import { objAt } from '../values.js';

const bindingGR = { group: '', resource: 'pods/binding' };

/** The pod bound to `node`: the PodScheduled condition True, the Binding's annotations added. */
export function boundPod(
  pod: KubeObject,
  node: string,
  annotations: Record<string, string> | undefined,
): KubeObject {
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
