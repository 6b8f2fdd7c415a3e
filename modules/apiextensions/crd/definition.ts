/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as a kind of the registry: its definition and strategy.
 * The checks that need CEL and the values module are plugged in by whoever registers it. A CRD's first
 * delete only marks it Terminating and adds the cleanup finalizer, so its custom resources go first.
 */
import { nowTimestamp, type KubeObject } from '../../api/index.js';
import { allVerbs, type ResourceDefinition, type Strategy } from '../../registry/index.js';
import { defaultCRD, prepareCRDForCreate, prepareCRDForUpdate } from './defaults.js';
import { keepAllButStatus } from '../status-only.js';
import { cleanupFinalizer, setCondition, terminatingConditions } from './names.js';
import { crdPrinterColumns, crdSchema } from './schema.js';
import { crdGroup, crdVersion, type CustomResourceDefinition } from './types.js';
import { validateCRD, validateCRDStatusUpdate, validateCRDUpdate } from './validation.js';
import type { PluggedChecks } from './validation-schema.js';

const asCRD = (obj: KubeObject): CustomResourceDefinition => obj as CustomResourceDefinition;

export function crdStrategy(checks: PluggedChecks = {}): Strategy {
  return {
    defaults: (obj) => defaultCRD(asCRD(obj)),
    prepareForCreate: (obj) => prepareCRDForCreate(asCRD(obj)),
    prepareForUpdate: (obj, old) => prepareCRDForUpdate(asCRD(obj), asCRD(old)),
    validate: (obj) => validateCRD(asCRD(obj), checks),
    // an update is judged against the stored CRD (kube relaxes rules the stored CRD already broke)
    validateUpdate: (obj, old) => validateCRDUpdate(asCRD(obj), asCRD(old), checks),
    updateReplacesValidate: true,
    finalizers: (obj) => (obj.metadata.deletionTimestamp ? [] : [cleanupFinalizer]),
    prepareForDelete(obj) {
      const finalizers = (obj.metadata.finalizers ??= []);
      if (!finalizers.includes(cleanupFinalizer)) finalizers.push(cleanupFinalizer);
      setCondition(asCRD(obj), terminatingConditions.pending, nowTimestamp());
    },
  };
}

// a status write changes status only (kube also resets the metadata a status write carries)
const statusStrategy: Strategy = {
  prepareForUpdate: keepAllButStatus,
  validateUpdate: (obj) => validateCRDStatusUpdate(asCRD(obj)),
};

export function crdDefinition(checks: PluggedChecks = {}): ResourceDefinition {
  return {
    group: crdGroup,
    versions: [crdVersion],
    storageVersion: crdVersion,
    resource: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    kind: 'CustomResourceDefinition',
    listKind: 'CustomResourceDefinitionList',
    scope: 'Cluster',
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    verbs: allVerbs,
    subresources: ['status'],
    nameRule: 'dns1123Subdomain',
    tracksGeneration: true,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    schema: crdSchema,
    description: crdSchema.description ?? '',
    printerColumns: crdPrinterColumns,
    strategy: crdStrategy(checks),
    subresourceStrategies: { status: statusStrategy },
  };
}
