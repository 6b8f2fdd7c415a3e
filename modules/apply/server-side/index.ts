/** Server-side apply: merge an applied configuration into the live object and settle field ownership. */
export { apply, beforeFirstApplyManager, type ApplyOptions, type ApplyResult } from './apply.js';
export { conflictError, conflictMessage } from './conflict.js';
export {
  allowedByLastApplied,
  kubectlManager,
  lastAppliedAnnotation,
  withLastApplied,
} from './last-applied.js';
export { mergeObjects } from './merge.js';
export { prune } from './prune.js';
export { dropRemovalNulls, removeItems } from './remove-items.js';
