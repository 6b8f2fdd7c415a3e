/**
 * managedFields: field sets (FieldsV1), the entries of metadata.managedFields, and ownership for non-apply
 * writes. Pure: objects and schemas in, field sets and entries out.
 */
export { FieldSet, FieldsV1Error, type FieldsV1 } from './field-set.js';
export {
  compareElements,
  elementText,
  field,
  index,
  key,
  makePath,
  parseElement,
  pathText,
  serializeElement,
  value,
  type KeyField,
  type Path,
  type PathElement,
} from './path-element.js';
export { fromObject, typedFieldSet, type CheckLevel, type TypedFieldSet } from './from-object.js';
export { compareObjects, excludeFields, type Comparison } from './compare.js';
export {
  compareEntries,
  decodeManagedFields,
  describeManager,
  encodeManagedFields,
  isResetManagedFields,
  ManagedFieldsError,
  managerIdentity,
  parseManagerIdentity,
  withManagedFields,
  type Managed,
  type ManagedFieldsEntry,
  type ManagerFields,
  type ManagerIdentity,
  type Operation,
} from './entries.js';
export { ancientChangesManager, capUpdateManagers, maxUpdateManagers } from './cap-managers.js';
export { FieldConflicts, settleOwnership, stripUnowned, unownedFields, type Conflict } from './owners.js';
export { reconcileWithSchema } from './reconcile.js';
export { withNamedFieldsAsMembers } from './named-fields.js';
export { TypedValueError, typedErrorText, type TypedError } from './schema-view.js';
export {
  fieldManagerMaxLength,
  managerName,
  recordUpdate,
  reconcileManaged,
  trackUpdate,
  type ObjectLike,
  type WriteOptions,
} from './update.js';
export { withZeroStructs } from './zero-structs.js';
