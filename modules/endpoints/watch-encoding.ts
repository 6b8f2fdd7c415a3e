/**
 * Writing watch streams: the negotiated form (JSON lines, Protobuf frames or a CBOR sequence) with the requested conversion
 * applied to every object but an ERROR's Status, as kube's watch encoder does.
 */
import type { KubeObject } from '../api/index.js';
import { cborSequenceMediaType, encodeCbor, encodeCborWatchEvent } from '../codec/index.js';
import { encodeProtobuf, responseSchema, watchEventFrame } from '../codec/index.js';
import { jsonEventLine, type EventType, type WatchEncoding } from '../watch/index.js';
import { PROTOBUF, type Output } from './respond.js';

export interface Presentation {
  /** the object as asked for (Table row, PartialObjectMetadata) */
  present: (obj: KubeObject) => unknown;
  /** set when `present` depends on the object alone, so its events can be shared between watchers */
  shared?: string;
}

export function watchEncoding(out: Output, presentation?: Presentation): WatchEncoding {
  const form = (type: EventType, object: object): object =>
    presentation && type !== 'ERROR' ? (presentation.present(object as KubeObject) as object) : object;
  const shared = (format: string) =>
    !presentation ? format : presentation.shared ? `${format};${presentation.shared}` : undefined;
  if (out.cbor) {
    const cborSchema = out.cbor.schema;
    return {
      contentType: cborSequenceMediaType,
      shared: shared('cbor'),
      encode: (type, object) =>
        encodeCborWatchEvent(
          type,
          encodeCbor(form(type, object), type === 'ERROR' || type === 'BOOKMARK' ? undefined : cborSchema),
        ),
    };
  }
  const schema = out.protobuf;
  if (schema) {
    return {
      contentType: `${PROTOBUF};stream=watch`,
      shared: shared('protobuf'),
      encode: (type, object) => {
        const body = form(type, object) as Record<string, unknown>;
        return watchEventFrame(type, encodeProtobuf(body, responseSchema(body, schema)));
      },
    };
  }
  return {
    contentType: 'application/json',
    shared: shared('json'),
    encode: (type, object) => jsonEventLine(type, form(type, object)),
  };
}
