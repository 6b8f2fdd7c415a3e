/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as a kind: cluster-scoped, with a status subresource. Its
 * strategy keeps what the server owns (status, storedVersions, generation) and refuses what kube refuses; a
 * CRD's first delete only marks it Terminating and adds the cleanup finalizer, so its objects go first.
 */
import type { KubeObject } from '../api/index.js';
import { kindSchema } from '../api/index.js';
import type { ResourceDefinition, Strategy } from '../registry/index.js';
import type { CrdCondition, CustomResourceDefinition } from './crd-shape.js';
import { setCondition } from './conditions.js';
import { keepAllButStatus } from './status-only.js';

export const APIEXTENSIONS = 'apiextensions.k8s.io';
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

const schema = kindSchema({
  description:
    'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.',
  properties: {
    spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
});

const asCrd = (obj: KubeObject) => obj as CustomResourceDefinition;

/** kube records the storage version in status.storedVersions the moment a CRD is written with it */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = (crd.spec?.versions ?? []).find((v) => v.storage)?.name;
  if (!storage) return;
  crd.status ??= {};
  const stored = (crd.status.storedVersions ??= []);
  if (!stored.includes(storage)) stored.push(storage);
}

const strategy: Strategy = {
  prepareForCreate(obj) {
    obj.status = {};
    recordStorageVersion(asCrd(obj));
  },
  prepareForUpdate(obj, old) {
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
    recordStorageVersion(asCrd(obj));
  },
  finalizers: (obj) => (obj.metadata.deletionTimestamp ? [] : [CLEANUP_FINALIZER]),
  prepareForDelete(obj) {
    const finalizers = (obj.metadata.finalizers ??= []);
    if (!finalizers.includes(CLEANUP_FINALIZER)) finalizers.push(CLEANUP_FINALIZER);
    const crd = asCrd(obj);
    crd.status ??= {};
    const terminating: CrdCondition = {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    };
    crd.status.conditions = setCondition(crd.status.conditions, terminating);
  },
};

/** crds/status: status only; the rest stays as stored */
const statusStrategy: Strategy = { prepareForUpdate: keepAllButStatus };

export const crdDefinition: ResourceDefinition = {
  group: APIEXTENSIONS,
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  scope: 'Cluster',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: ['status'],
  nameRule: 'dns1123Subdomain',
  tracksGeneration: true,
  allowCreateOnUpdate: false,
  schema,
  description: schema.description ?? '',
  strategy,
  subresourceStrategies: { status: statusStrategy },
};
