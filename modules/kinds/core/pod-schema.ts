/**
 * core/v1 Pod, and the bodies of its create-only subresources: core/v1 Binding (pods/binding) and policy/v1
 * Eviction (pods/eviction). The PodSpec and PodStatus tables live in pod-schema-*.ts.
 */
import {
  bool,
  field,
  int64,
  kindSchema,
  objectReferenceSchema,
  pointer,
  str,
  type Schema,
} from '../../api/index.js';
import { podSpec } from './pod-schema-spec.js';
import { podStatus } from './pod-schema-status.js';

export const podSchema = kindSchema({
  description:
    'A group of containers that run together on one node, sharing its network and volumes: the unit the scheduler places and the kubelet runs.',
  properties: {
    spec: field(2, podSpec),
    status: field(3, podStatus),
  },
});

export const bindingSchema: Schema = {
  ...kindSchema({
    description: 'Binds an object to another, here a pod to a node; created through pods/binding.',
    required: ['target'],
    properties: { target: field(2, objectReferenceSchema) },
  }),
  'x-pgkube-ref': 'io.k8s.api.core.v1.Binding',
};

const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** meta/v1 DeleteOptions as the Eviction carries it (OpenAPI keeps the library's own component). */
const deleteOptionsSchema: Schema = {
  type: 'object',
  description: 'Options of a delete request.',
  properties: {
    apiVersion: { type: 'string' },
    dryRun: field(5, { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' }),
    gracePeriodSeconds: pointer(int64(1)),
    ignoreStoreReadErrorWithClusterBreakingPotential: pointer(bool(6)),
    kind: { type: 'string' },
    orphanDependents: pointer(bool(3)),
    preconditions: pointer(
      field(2, {
        type: 'object',
        description: 'Conditions the object must meet for a delete to proceed.',
        properties: { resourceVersion: pointer(str(2)), uid: pointer(str(1)) },
        'x-pgkube-ref': `${meta}.Preconditions`,
      }),
    ),
    propagationPolicy: pointer(str(4)),
  },
  'x-pgkube-ref': `${meta}.DeleteOptions`,
};

export const evictionSchema: Schema = {
  ...kindSchema({
    description:
      'Asks for a pod to be deleted, as a disruption that PodDisruptionBudgets may refuse; created through pods/eviction.',
    properties: { deleteOptions: pointer(field(2, deleteOptionsSchema)) },
  }),
  'x-pgkube-ref': 'io.k8s.api.policy.v1.Eviction',
};
