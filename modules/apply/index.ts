/**
 * modules/apply, patch half: pure functions from (object, patch[, schema]) to a patched object or an
 * ApiError. Nothing here touches NestJS, storage or HTTP; inputs are never changed.
 */
export {
  applyJsonPatch,
  defaultMaxCopyBytes,
  maxJsonPatchOperations,
  type JsonPatchOptions,
} from './json-patch.js';
export { jsonPatchStrictErrors } from './json-patch-strict.js';
export { applyMergePatch, mergePatch } from './merge-patch.js';
export { applyStrategicMergePatch } from './strategic-merge.js';
export {
  builtinGroups,
  patchMediaTypes,
  patchTypeOf,
  supportedPatchTypes,
  supportsStrategicMerge,
  type PatchType,
  type StrategicMergeSubject,
} from './patch-type.js';
export { PatchRejectedError, rejectedMessage } from './patch-errors.js';
export * from './managed-fields/index.js';
export * from './server-side/index.js';
