export { isQualifiedName, isDNS1123Subdomain, isValidPathSegmentName, nameIsDNSSubdomain } from './names.js';
export {
  validateConfigMapPayload,
  validateImmutablePayload,
  base64Decode,
  validateSecretPayload,
} from './keys.js';
export {
  validateStandardFinalizers,
  validateFinalizerName,
  fieldImmutableErrorMsg,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from './metadata.js';
export { goUnmarshalObjectError } from './go-json.js';
