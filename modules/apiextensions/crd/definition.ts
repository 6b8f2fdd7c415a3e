/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as a kind of the registry: its definition and strategy.
 * The checks that need CEL and the values module are plugged in by whoever registers it.
 */
import type { KubeObject } from '../../api/index.js';
import { allVerbs, type ResourceDefinition, type Strategy } from '../../registry/index.js';
import {
  defaultCRD,
  prepareCRDForCreate,
  prepareCRDForUpdate,
  prepareCRDStatusForUpdate,
} from './defaults.js';
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
    // The generic store runs `validate` on updates too, but an update is judged against the stored CRD
    // (kube relaxes rules the stored CRD already broke), so updates are left to validateUpdate. A stored
    // object always has a resourceVersion by then; a new one never has.
    validate: (obj) => (obj.metadata.resourceVersion ? [] : validateCRD(asCRD(obj), checks)),
    validateUpdate: (obj, old) => validateCRDUpdate(asCRD(obj), asCRD(old), checks),
  };
}

const statusStrategy: Strategy = {
  prepareForUpdate: (obj, old) => prepareCRDStatusForUpdate(asCRD(obj), asCRD(old)),
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
