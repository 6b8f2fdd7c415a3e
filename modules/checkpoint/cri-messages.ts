/**
 * The CRI (runtime.v1) messages of CheckpointContainer, written from api.proto's field numbers:
 * CheckpointContainerRequest { string container_id = 1; string location = 2; int64 timeout = 3; } and an empty
 * CheckpointContainerResponse. proto3: fields at their zero value are not written.
 */
import { WireReader, WireType, WireWriter } from '../codec/index.js';

export const CHECKPOINT_CONTAINER = '/runtime.v1.RuntimeService/CheckpointContainer';

export interface CheckpointContainerRequest {
  containerId: string;
  location: string;
  /** seconds */
  timeout: number;
}

export function encodeCheckpointContainerRequest(r: CheckpointContainerRequest): Uint8Array {
  const w = new WireWriter();
  if (r.containerId) w.string(1, r.containerId);
  if (r.location) w.string(2, r.location);
  if (r.timeout !== 0) {
    w.tag(3, WireType.Varint);
    w.varint(BigInt(r.timeout));
  }
  return w.finish();
}

/** For runtimes (the tests' fake CRI server); unknown fields are skipped as protobuf readers skip them. */
export function decodeCheckpointContainerRequest(bytes: Uint8Array): CheckpointContainerRequest {
  const r = new WireReader(bytes);
  const out: CheckpointContainerRequest = { containerId: '', location: '', timeout: 0 };
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === 1 && wireType === WireType.Bytes) out.containerId = r.string();
    else if (field === 2 && wireType === WireType.Bytes) out.location = r.string();
    else if (field === 3 && wireType === WireType.Varint) out.timeout = Number(BigInt.asIntN(64, r.varint()));
    else r.skip(wireType);
  }
  return out;
}
