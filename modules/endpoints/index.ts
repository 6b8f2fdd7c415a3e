export { Pipeline, type Delegate, type PipelineSteps } from './pipeline.js';
export { jsonOutput, sendError, toApiError } from './respond.js';
export { NonResourceHandlers } from './non-resource.js';
export { ReadHandlers } from './reads.js';
export { ResourceHandlers } from './resources.js';
export type { ResourceRequest } from './request.js';
export { EndpointsModule, type EndpointsOptions } from './endpoints.module.js';
