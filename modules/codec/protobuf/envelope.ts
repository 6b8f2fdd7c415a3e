/**
 * Every Kubernetes protobuf body is the 4-byte magic `k8s\0` followed by a runtime.Unknown message:
 * {1: typeMeta {1: apiVersion, 2: kind}, 2: raw (the object's own message), 3: contentEncoding, 4: contentType}.
 */
import { ApiError } from '../../api/index.js';
import { malformed, WireReader, WireType, WireWriter } from './wire.js';

export const protobufPrefix = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface Envelope {
  /** empty when the client left it out (kube then defaults it from the request path) */
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding?: string;
  contentType?: string;
}

export function hasProtobufPrefix(buf: Uint8Array): boolean {
  return buf.length >= 4 && protobufPrefix.every((b, i) => buf[i] === b);
}

export function unwrap(buf: Uint8Array): Envelope {
  if (!hasProtobufPrefix(buf)) {
    throw ApiError.badRequest(
      `provided data does not appear to be a protobuf message, expected prefix [${protobufPrefix.join(' ')}]`,
    );
  }
  const out: Envelope = {
    apiVersion: '',
    kind: '',
    raw: new Uint8Array(0),
    contentEncoding: '',
    contentType: '',
  };
  const r = new WireReader(buf, 4);
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field >= 1 && field <= 4 && wireType !== WireType.Bytes) {
      throw malformed(`proto: wrong wireType = ${wireType} for field ${unknownFields[field - 1]}`);
    }
    switch (field) {
      case 1: {
        const { start, end } = r.span();
        readTypeMeta(new WireReader(buf, start, end), out);
        break;
      }
      case 2:
        out.raw = r.bytes();
        break;
      case 3:
        out.contentEncoding = r.string();
        break;
      case 4:
        out.contentType = r.string();
        break;
      default:
        r.skip(wireType);
    }
  }
  return out;
}

const unknownFields = ['TypeMeta', 'Raw', 'ContentEncoding', 'ContentType'];

function readTypeMeta(r: WireReader, out: Envelope): void {
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field !== 1 && field !== 2) {
      r.skip(wireType);
      continue;
    }
    if (wireType !== WireType.Bytes) {
      throw malformed(`proto: wrong wireType = ${wireType} for field ${field === 1 ? 'APIVersion' : 'Kind'}`);
    }
    if (field === 1) out.apiVersion = r.string();
    else out.kind = r.string();
  }
}

/** The body kube writes: every field of Unknown and TypeMeta is a Go value, so all are written. */
export function wrap(envelope: Envelope): Uint8Array {
  const w = new WireWriter();
  w.raw(protobufPrefix);
  w.message(1, (t) => {
    t.string(1, envelope.apiVersion);
    t.string(2, envelope.kind);
  });
  w.bytes(2, envelope.raw);
  w.string(3, envelope.contentEncoding ?? '');
  w.string(4, envelope.contentType ?? '');
  return w.finish();
}
