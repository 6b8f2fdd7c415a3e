export { decodeObject, decodeErrorPrefix, type DecodeOptions, type DecodeResult } from './decode.js';
export {
  findDuplicateFields,
  findYamlDuplicateKeys,
  yamlDuplicateMessage,
  type YamlDuplicate,
} from './duplicates.js';
export { strictMessages, strictDecodingError } from './strict.js';
export { checkBase64, parseGoTime, quantityError } from './formats.js';
