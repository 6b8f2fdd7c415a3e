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
