export { decodeObject, decodeErrorPrefix, type DecodeOptions, type DecodeResult } from './decode.js';
export {
  findDuplicateFields,
  findYamlDuplicateKeys,
  yamlDuplicateMessage,
  type YamlDuplicate,
} from './duplicates.js';
export { strictMessages, strictDecodingError } from './strict.js';
export { checkBase64, parseGoTime, quantityError } from './formats.js';
// custom resources: values against a CRD's structural schema
export { validateValues, type ValidateValuesOptions } from './validate-values.js';
export { validateListTypes, validateListTypesUpdate } from './list-types.js';
export { applyDefaults, hasDefaults, prunedCopy, validateDefault } from './defaults.js';
export { validateEmbeddedResources, decodeObjectMeta } from './embedded.js';
export { Correlation, correlate, compositeKey } from './correlate.js';
export { compileValueNode, type ValueNode } from './value-node.js';
export {
  validateCustomResource,
  validateCustomResourceStatus,
  blockingError,
  type CustomResourceValidation,
} from './custom-resource.js';
export { formatCheck } from './openapi-formats.js';
export { goRegExp } from './go-regexp.js';
export { errorValueText, goSharpV, goFloat } from './go-values.js';
