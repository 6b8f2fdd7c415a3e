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
export {
  parseIPSloppy,
  isIPv4Bytes,
  isIPv6String,
  isValidIP,
  isValidIPv4Address,
  isValidIPv6Address,
  isValidCIDR,
  validateNonSpecialIP,
  isValidPortNum,
  isValidPortName,
  validatePortNumOrName,
  isFullyQualifiedDomainName,
} from './network.js';
export { validateLabels } from './metadata.js';
