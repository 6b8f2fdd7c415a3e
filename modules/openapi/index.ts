export {
  openApiV3Index,
  openApiV3Document,
  openApiV3Rendered,
  openApiV3Keys,
  openApiV3Response,
  acceptsJson,
} from './v3.js';
export type { OpenApiV3Index, RenderedDocument, OpenApiResponse } from './v3.js';
export { openApiV2, openApiV2Document, openApiV2Response } from './v2.js';
export { schemaPrefix, schemaName, kindSchemaName, listSchemaName, isBuiltInGroup } from './names.js';
export { openApiV2Answer } from './v2.js';
export { mergeSwagger } from './swagger-merge.js';
export type { SwaggerParts } from './swagger-merge.js';
export {
  remoteOpenApiV2,
  fetchOpenApiV2,
  mergedOpenApiV2Document,
  mergedOpenApiV2Response,
} from './remote-v2.js';
export type { RemoteOpenApiV2, RemoteOpenApiV2Snapshot } from './remote-v2.js';
export { remoteOpenApiV3, fetchOpenApiV3Entry, mergedOpenApiV3Index } from './remote-v3.js';
export type { RemoteOpenApiV3, RemoteOpenApiV3Snapshot, RemoteV3Entry } from './remote-v3.js';
