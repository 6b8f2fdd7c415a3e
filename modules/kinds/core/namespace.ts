/**
 * core/v1 Namespace: cluster-scoped; its status is server-owned (written through namespaces/status) and its
 * spec.finalizers only change through namespaces/finalize.
 */
import type { ResourceDefinition, Schema, Strategy } from '../../registry/index.js';
import { isPlainObject, type KubeObject } from '../../api/index.js';
import { fieldError, type FieldError } from '../../api/index.js';
import { ageColumn, nameColumn, stringAt } from '../columns.js';
import { field, kindSchema, str, timeSchema } from '../../api/index.js';
import { validateFinalizerName, validateStandardFinalizers } from '../../validation/index.js';

export const namespacePhases = { active: 'Active', terminating: 'Terminating' } as const;
/** finalizer the namespace controller removes once the namespace's content is gone */
export const finalizerKubernetes = 'kubernetes';
/** label kube keeps equal to the namespace's name, so namespaces can be selected by name */
export const labelMetadataName = 'kubernetes.io/metadata.name';

const namespaceConditionSchema: Schema = {
  type: 'object',
  description: 'One aspect of the namespace state.',
  properties: {
    lastTransitionTime: field(4, timeSchema),
    message: str(6, 'Human-readable details about the transition.'),
    reason: str(5, 'One-word CamelCase reason for the transition.'),
    status: str(2, 'Status of the condition: True, False or Unknown.'),
    type: str(1, 'Type of the condition.'),
  },
  required: ['type', 'status'],
  'x-pgkube-ref': 'io.k8s.api.core.v1.NamespaceCondition',
};

const schema = kindSchema({
  description: 'A scope for names: most objects live in a namespace, and deleting it deletes them.',
  properties: {
    spec: field(2, {
      type: 'object',
      description: 'What the namespace should be.',
      properties: {
        finalizers: field(1, {
          type: 'array',
          description: 'Finalizers that must clear before the namespace is removed from storage.',
          items: { type: 'string' },
          'x-kubernetes-list-type': 'atomic',
        }),
      },
      'x-pgkube-ref': 'io.k8s.api.core.v1.NamespaceSpec',
    }),
    status: field(3, {
      type: 'object',
      description: 'The observed state of the namespace; written by the server.',
      properties: {
        conditions: field(2, {
          type: 'array',
          description: 'The latest observations of the namespace state.',
          items: namespaceConditionSchema,
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'type',
          'x-kubernetes-patch-strategy': 'merge',
        }),
        phase: field(1, {
          type: 'string',
          description: 'Lifecycle phase: Active, or Terminating once deletion was requested.',
          enum: [namespacePhases.active, namespacePhases.terminating],
        }),
      },
      'x-pgkube-ref': 'io.k8s.api.core.v1.NamespaceStatus',
    }),
  },
});

const record = (obj: KubeObject, key: string): Record<string, unknown> => {
  const value = obj[key];
  if (isPlainObject(value)) return value;
  const created: Record<string, unknown> = {};
  obj[key] = created;
  return created;
};

function setNameLabel(obj: KubeObject): void {
  const name = obj.metadata.name;
  if (!name) return;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [labelMetadataName]: name };
}

function specFinalizers(obj: KubeObject): unknown[] {
  const spec = obj.spec;
  return isPlainObject(spec) && Array.isArray(spec.finalizers) ? spec.finalizers : [];
}

export const namespaceStrategy: Strategy = {
  defaults(obj: KubeObject) {
    const status = record(obj, 'status');
    if (!status.phase) status.phase = namespacePhases.active;
    setNameLabel(obj);
  },
  prepareForCreate(obj: KubeObject) {
    obj.status = { phase: namespacePhases.active };
    const finalizers = specFinalizers(obj);
    if (!finalizers.includes(finalizerKubernetes))
      record(obj, 'spec').finalizers = [...finalizers, finalizerKubernetes];
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    const oldSpec = isPlainObject(old.spec) ? old.spec : {};
    const spec = record(obj, 'spec');
    if (oldSpec.finalizers === undefined) delete spec.finalizers;
    else spec.finalizers = structuredClone(oldSpec.finalizers);
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
  },
  validate(obj: KubeObject) {
    const errs = validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers');
    for (const name of specFinalizers(obj))
      errs.push(...validateFinalizerName(String(name), 'spec.finalizers'));
    return errs;
  },
  // generateName only yields the name after defaults ran, so the label is settled here
  canonicalize: setNameLabel,
  // a namespace being deleted turns Terminating until its content is gone and spec.finalizers is empty
  prepareForDelete(obj: KubeObject) {
    record(obj, 'status').phase = namespacePhases.terminating;
  },
  finalizers: (obj: KubeObject) => specFinalizers(obj).map(String),
  selectableFields(obj: KubeObject) {
    const status = isPlainObject(obj.status) ? obj.status : {};
    // kube keeps a bare "name" field selector for compatibility
    return {
      'status.phase': typeof status.phase === 'string' ? status.phase : '',
      name: obj.metadata.name ?? '',
    };
  },
};

/** namespaces/status: only status changes; the phase must agree with deletionTimestamp. */
export const namespaceStatusStrategy: Strategy = {
  defaults: namespaceStrategy.defaults,
  canonicalize: namespaceStrategy.canonicalize,
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    if (old.spec === undefined) delete obj.spec;
    else obj.spec = structuredClone(old.spec);
  },
  validateUpdate(obj: KubeObject): FieldError[] {
    const status = isPlainObject(obj.status) ? obj.status : {};
    const phase = typeof status.phase === 'string' ? status.phase : '';
    // kube's path really is "status.Phase"
    if (!obj.metadata.deletionTimestamp) {
      if (phase !== namespacePhases.active) {
        return [
          fieldError.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty"),
        ];
      }
    } else if (phase !== namespacePhases.terminating) {
      return [
        fieldError.invalid(
          'status.Phase',
          phase,
          "may only be 'Terminating' if `deletionTimestamp` is not empty",
        ),
      ];
    }
    return [];
  },
};

/** namespaces/finalize: only spec.finalizers changes. */
export const namespaceFinalizeStrategy: Strategy = {
  defaults: namespaceStrategy.defaults,
  canonicalize: namespaceStrategy.canonicalize,
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
  },
  validateUpdate(obj: KubeObject): FieldError[] {
    return specFinalizers(obj).flatMap((name, i) =>
      validateFinalizerName(String(name), `spec.finalizers[${i}]`),
    );
  },
};

export const namespaceDefinition: ResourceDefinition = {
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'namespaces',
  singular: 'namespace',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  scope: 'Cluster',
  shortNames: ['ns'],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: ['status', 'finalize'],
  nameRule: 'dns1123Label',
  allowCreateOnUpdate: false,
  schema,
  description: schema.description ?? '',
  printerColumns: [
    nameColumn,
    {
      name: 'Status',
      type: 'string',
      description: 'Lifecycle phase of the namespace.',
      priority: 0,
      jsonPath: '.status.phase',
      cell: (obj) => stringAt(isPlainObject(obj.status) ? obj.status.phase : undefined),
    },
    ageColumn,
  ],
  strategy: namespaceStrategy,
  subresourceStrategies: { status: namespaceStatusStrategy, finalize: namespaceFinalizeStrategy },
};
