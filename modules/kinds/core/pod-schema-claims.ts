/**
 * Ephemeral volumes of core/v1 Pod: the PersistentVolumeClaim template a pod's volume is made from, as kube v1.32
 * has it (field names, protobuf numbers, markers); descriptions are ours.
 */
import { labelSelectorSchema, objectMetaSchema } from '../../api/index.js';
import { message } from '../message-table.js';

export const typedLocalObjectReference = message(
  'TypedLocalObjectReference',
  'An object in the same namespace, named with its kind and group.',
  {
    apiGroup: [1, 'string', 'API group of the object; empty for the core group.', { ptr: true }],
    kind: [2, 'string', 'Kind of the object.'],
    name: [3, 'string', 'Name of the object.'],
  },
  { required: ['kind', 'name'], mapType: 'atomic' },
);

export const typedObjectReference = message(
  'TypedObjectReference',
  'An object named with its kind, group and namespace.',
  {
    apiGroup: [1, 'string', 'API group of the object; empty for the core group.', { ptr: true }],
    kind: [2, 'string', 'Kind of the object.'],
    name: [3, 'string', 'Name of the object.'],
    namespace: [4, 'string', 'Namespace of the object.', { ptr: true }],
  },
  { required: ['kind', 'name'] },
);

export const volumeResourceRequirements = message(
  'VolumeResourceRequirements',
  'Storage a volume claim asks for.',
  {
    limits: [1, { map: 'quantity' }, 'Most storage allowed.'],
    requests: [2, { map: 'quantity' }, 'Least storage needed.'],
  },
);

export const persistentVolumeClaimSpec = message(
  'PersistentVolumeClaimSpec',
  'What a volume claim asks for.',
  {
    accessModes: [
      1,
      ['string'],
      'Access modes wanted (ReadWriteOnce, ReadOnlyMany, ...).',
      { list: 'atomic' },
    ],
    dataSource: [7, typedLocalObjectReference, '', { ptr: true }],
    dataSourceRef: [8, typedObjectReference, '', { ptr: true }],
    resources: [2, volumeResourceRequirements],
    selector: [4, labelSelectorSchema, '', { ptr: true }],
    storageClassName: [5, 'string', 'Storage class of the claim.', { ptr: true }],
    volumeAttributesClassName: [9, 'string', 'VolumeAttributesClass of the claim.', { ptr: true }],
    volumeMode: [6, 'string', 'Filesystem (the default) or Block.', { ptr: true }],
    volumeName: [3, 'string', 'The persistent volume the claim binds to.'],
  },
);

export const persistentVolumeClaimTemplate = message(
  'PersistentVolumeClaimTemplate',
  'A claim made for the pod: its labels and annotations, and its spec.',
  {
    metadata: [1, objectMetaSchema],
    spec: [2, persistentVolumeClaimSpec],
  },
  { required: ['spec'] },
);

export const ephemeralVolumeSource = message(
  'EphemeralVolumeSource',
  'A volume from a claim made for the pod and deleted with it.',
  {
    volumeClaimTemplate: [1, persistentVolumeClaimTemplate, '', { ptr: true }],
  },
);
