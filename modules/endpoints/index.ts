export { Pipeline } from './pipeline.js';
export { jsonOutput, sendError, toApiError } from './respond.js';
export { NonResourceHandlers } from './non-resource.js';
export { ReadHandlers } from './reads.js';
export { ResourceHandlers } from './resources.js';
