/**
 * core/v1 Pod, served as data: kube v1.32's schema, defaults, validation and update rules, with pods/status,
 * pods/binding (core/v1 Binding: the scheduler's "run it on this node") and pods/eviction (policy/v1 Eviction).
 * The binding and eviction answers live in modules/endpoints (pod-binding.ts, pod-eviction.ts). Nothing runs
 * a pod here: node agents read the pods bound to them (field selector spec.nodeName) and write their status.
 * A delete is graceful (pod-deletion.ts): a bound pod stays Terminating until its agent deletes it with grace 0.
 */
import type { ResourceDefinition, Strategy } from '../../registry/index.js';
import { isPlainObject, type FieldError, type KubeObject } from '../../api/index.js';
import { isValidIP, validateStandardFinalizers } from '../../validation/index.js';
import { ageColumn, nameColumn } from '../columns.js';
import { listAt, objAt, strAt } from '../values.js';
import { podColumns, podWideColumns } from './pod-columns.js';
import { addDefaultTolerations, defaultPod, initialStatus } from './pod-defaults.js';
import { podGracePeriod } from './pod-deletion.js';
import { records } from './pod-parts.js';
import { bindingSchema, evictionSchema, podSchema } from './pod-schema.js';
import { validatePodUpdate } from './pod-update.js';
import { validatePodSpec } from './pod-validation.js';

const finalizers = (obj: KubeObject): FieldError[] =>
  validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers');

/** kube's applySchedulingGatedCondition: a gated pod says why it is not scheduled. */
function gatedCondition(obj: KubeObject): void {
  if (listAt(objAt(obj.spec).schedulingGates).length === 0) return;
  const status = objAt(obj.status);
  status.conditions = [
    {
      type: 'PodScheduled',
      status: 'False',
      reason: 'SchedulingGated',
      message: 'Scheduling is blocked due to non-empty scheduling gates',
      lastProbeTime: null,
      lastTransitionTime: null,
    },
  ];
}

export const podStrategy: Strategy = {
  defaults: (obj) => defaultPod(obj),
  prepareForCreate(obj) {
    initialStatus(obj);
    gatedCondition(obj);
    // kube's DefaultTolerationSeconds admission plugin, run on every pod create
    addDefaultTolerations(obj);
  },
  prepareForUpdate(obj, old) {
    obj.status = structuredClone(old.status ?? {});
  },
  validate: (obj) => [...finalizers(obj), ...validatePodSpec(objAt(obj.spec), true)],
  // an update is checked by kube's update rules, not the create ones (ephemeral containers, ...)
  updateReplacesValidate: true,
  gracePeriodSeconds: podGracePeriod,
  validateUpdate: (obj, old) => [
    ...finalizers(obj),
    ...validatePodSpec(objAt(obj.spec), false),
    ...validatePodUpdate(obj, old),
  ],
  // kube's PodToSelectableFields: what schedulers and node agents list and watch by
  selectableFields(obj) {
    const spec = objAt(obj.spec);
    const status = objAt(obj.status);
    return {
      'spec.nodeName': strAt(spec.nodeName),
      'spec.restartPolicy': strAt(spec.restartPolicy),
      'spec.schedulerName': strAt(spec.schedulerName),
      'spec.serviceAccountName': strAt(spec.serviceAccountName),
      'spec.hostNetwork': String(spec.hostNetwork === true),
      'status.phase': strAt(status.phase),
      'status.podIP': strAt(objAt(listAt(status.podIPs)[0]).ip),
      'status.nominatedNodeName': strAt(status.nominatedNodeName),
    };
  },
};

/** Addresses in the status must be IPs (kube's validatePodIPs / validateHostIPs, without dual-stack checks). */
function validatePodStatus(obj: KubeObject): FieldError[] {
  const status = objAt(obj.status);
  const errors: FieldError[] = [];
  for (const list of ['podIPs', 'hostIPs']) {
    records(status[list]).forEach((entry, i) =>
      errors.push(...isValidIP(`status.${list}[${i}].ip`, strAt(entry.ip))),
    );
  }
  return errors;
}

/** pods/status: only the status changes (and labels, annotations, as kube lets node agents write them). */
export const podStatusStrategy: Strategy = {
  defaults: (obj) => defaultPod(obj),
  prepareForUpdate(obj, old) {
    if (old.spec === undefined) delete obj.spec;
    else obj.spec = structuredClone(old.spec);
    // old kubelets wrote owner references wrongly; kube keeps the stored ones
    obj.metadata.ownerReferences = old.metadata.ownerReferences;
    if (!isPlainObject(obj.status)) obj.status = {};
  },
  validateUpdate: (obj) => validatePodStatus(obj),
};

export const podDefinition: ResourceDefinition = {
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'pods',
  singular: 'pod',
  kind: 'Pod',
  listKind: 'PodList',
  scope: 'Namespaced',
  shortNames: ['po'],
  categories: ['all'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  // binding and eviction only create (bodies: Binding, Eviction); status reads and writes the pod
  subresources: ['binding', 'eviction', 'status'],
  subresourceSchemas: { binding: bindingSchema, eviction: evictionSchema },
  nameRule: 'dns1123Subdomain',
  schema: podSchema,
  description: podSchema.description ?? '',
  printerColumns: [nameColumn, ...podColumns, ageColumn, ...podWideColumns],
  strategy: podStrategy,
  // a binding changes spec.nodeName and the PodScheduled condition itself (pod-binding.ts)
  subresourceStrategies: { status: podStatusStrategy, binding: {} },
  returnDeletedObject: true,
};
