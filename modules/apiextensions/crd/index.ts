/**
 * The CustomResourceDefinition kind: its types, schema and registry definition (`crdDefinition`), kube's
 * defaulting and validation (`validateCRD`, `validateCRDUpdate`, with CEL and default-value checks plugged
 * in), the naming controller's rules (`acceptNames`, `establishedCondition`), and the table of a custom
 * resource (`customResourceColumns`).
 */
export * from './types.js';
export { crdSchema, crdPrinterColumns, jsonSchemaPropsSchema, validationRuleSchema } from './schema.js';
export { defaultCRD, prepareCRDForCreate, prepareCRDForUpdate, semanticEqual } from './defaults.js';
export {
  validateCRD,
  validateCRDUpdate,
  validateCRDStatusUpdate,
  type CRDValidationOptions,
} from './validation.js';
export type { PluggedChecks } from './validation-schema.js';
export type { ValidateDefault } from './default-values.js';
export { columnPathError, printerColumnTypes, maxSelectableFields } from './validation-columns.js';
export { validFieldPath, type FieldPathResult } from './field-path.js';
export { validateStructural, structuralBuildError } from './structural.js';
export {
  acceptNames,
  namesSettled,
  establishedCondition,
  setCondition,
  terminatingConditions,
  cleanupFinalizer,
  type BuiltinNames,
  type NamesDecision,
} from './names.js';
export { customResourceColumns, columnCell, cellValue, defaultColumns } from './columns.js';
export { internalSpec, type InternalSpec, type InternalVersion } from './internal.js';
export { crdDefinition, crdStrategy } from './definition.js';
