/**
 * CBOR bodies as kube-apiserver v1.32 writes and reads them (KEP-4222, feature gate CBORServingAndStorage):
 * objects (`application/cbor`), watch streams (`application/cbor-seq`) and apply patches
 * (`application/apply-patch+cbor`).
 */
export { decodeCbor } from './decode.js';
export { cborListSchema, encodeCbor } from './encode.js';
export { CborDecodeError } from './errors.js';
export {
  applyPatchCborMediaType,
  cborMediaType,
  cborSequenceMediaType,
  hasSelfDescribedPrefix,
  selfDescribedPrefix,
} from './media-types.js';
export { CborSequenceReader, encodeCborWatchEvent, splitCborSequence } from './sequence.js';
