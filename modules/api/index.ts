export {
  ApiError,
  StatusCause,
  Status,
  formatFieldError,
  FieldError,
  fieldError,
  GroupResource,
} from './status.js';
export { goQuote } from './selectors/quote.js';
export {
  nowTimestamp,
  isListBody,
  KubeObject,
  ListMeta,
  isPlainObject,
  KubeList,
  ObjectMeta,
  OwnerReference,
} from './object.js';
export { UserInfo, anonymousUser } from './user.js';
export { RequestInfo, parseRequestInfo, queryFlag } from './request-info.js';
export { servedRelease, servedMinorVersion } from './version.js';
export type { Schema, ValidationRule } from './schema.js';
export { parseFieldSelector, validateFieldSelector, type FieldRequirement } from './selectors/fields.js';
export {
  parseLabelSelector,
  labelSelectorFromMeta,
  type LabelRequirement,
  type MetaLabelSelector,
} from './selectors/labels.js';
export * from './meta-schemas.js';
export * from './request-context.js';
export * from './gvk.js';
export { goDurationString, parseGoDuration } from './go-duration.js';
export { configFileObject } from './config-file.js';
export { followPath, type PathFollower } from './follow-path.js';
export { parseJSONPath, JSONPathError, type JSONPathNode, type ListNode } from './jsonpath.js';
export {
  findResults,
  executeJSONPath,
  printResults,
  goJSON,
  goFloat,
  goText,
  type EvalOptions,
} from './jsonpath-eval.js';
