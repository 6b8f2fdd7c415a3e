/** Kubernetes Protobuf bodies (`application/vnd.kubernetes.protobuf`), encoded and decoded from kind schemas. */
export { decodeProtobufObject, type TypeMeta } from './decode.js';
export { encodeProtobufObject } from './encode.js';
export { hasProtobufPrefix, protobufPrefix, unwrap, wrap, type Envelope } from './envelope.js';
export {
  decodeDeleteOptions,
  decodeProtobuf,
  deleteOptionsSchema,
  encodeProtobuf,
  encodeStatus,
  listMetaSchema,
  listSchema,
  partialObjectMetadataSchema,
  preconditionsSchema,
  responseSchema,
  statusSchema,
} from './meta-messages.js';
export { decodeWatchEvent, FrameReader, watchEventFrame, type WatchEventMessage } from './watch-event.js';
export { isPointer, pointerMarker } from './shape.js';
export { WireReader, WireType, WireWriter } from './wire.js';
