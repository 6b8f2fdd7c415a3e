export * from './media-type.js';
export * from './formats.js';
export * from './table.js';
export * from './compression.js';
export {
  decodeCbor,
  applyPatchCborMediaType,
  cborListSchema,
  cborMediaType,
  encodeCbor,
  cborSequenceMediaType,
  encodeCborWatchEvent,
  hasSelfDescribedPrefix,
  CborSequenceReader,
} from './cbor/index.js';
export {
  decodeProtobufObject,
  hasProtobufPrefix,
  protobufPrefix,
  unwrap,
  Envelope,
  partialObjectMetadataSchema,
  decodeDeleteOptions,
  encodeProtobuf,
  responseSchema,
  watchEventFrame,
  decodeProtobuf,
  listSchema,
  statusSchema,
  WireReader,
  WireType,
  WireWriter,
  wrap,
  decodeWatchEvent,
  FrameReader,
} from './protobuf/index.js';
export { pointerMarker } from './protobuf/shape.js';
