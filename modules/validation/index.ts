export {
  isQualifiedName,
  isDNS1123Subdomain,
  isDNS1123Label,
  isDNS1035Label,
  isValidLabelValue,
  isValidPathSegmentName,
  maskTrailingDash,
  nameIsDNSSubdomain,
} from './names.js';
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
