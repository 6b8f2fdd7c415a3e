export {
  DELEGATES,
  Pipeline,
  UPSTREAM,
  type Delegate,
  type PipelineSteps,
  type UpstreamForwarding,
} from './pipeline.js';
export { jsonOutput, sendError, toApiError, writeStatus } from './respond.js';
export { NonResourceHandlers } from './non-resource.js';
export { ReadHandlers } from './reads.js';
export { ResourceHandlers } from './resources.js';
export type { ResourceRequest } from './request.js';
export { EndpointsModule, type EndpointsOptions, type RequestLimits } from './endpoints.module.js';
export { InflightLimiter, tooManyRequests } from './inflight.js';
export { RequestTimeouts, requestTimedOut, watchTimeoutMs } from './timeout.js';
export { RemoteDocuments } from './remote-documents.js';
