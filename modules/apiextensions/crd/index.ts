export * from './types.js';
export { crdSchema, crdPrinterColumns, jsonSchemaPropsSchema, validationRuleSchema } from './schema.js';
export {
  defaultCRD,
  prepareCRDForCreate,
  prepareCRDForUpdate,
  prepareCRDStatusForUpdate,
  semanticEqual,
} from './defaults.js';
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
