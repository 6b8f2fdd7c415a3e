/** The container runtime as the checkpoint endpoint uses it: CRI over gRPC, or the simulated runtime. */
import type { ContainerOnNode, PodOnNode } from './pods.js';

export interface CheckpointRequest {
  pod: PodOnNode;
  container: ContainerOnNode & { id: string };
  /** where the archive goes */
  location: string;
  /** CRI's timeout: seconds the runtime may take */
  timeoutSeconds: number;
}

export interface ContainerRuntime {
  /** Writes the archive at `location`; a RuntimeError when the runtime refuses or fails. */
  checkpointContainer(request: CheckpointRequest): Promise<void>;
}

/** gRPC status codes the endpoint tells apart */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  INTERNAL: 13,
  UNIMPLEMENTED: 12,
  UNAVAILABLE: 14,
} as const;

const codeNames: Record<number, string> = {
  0: 'OK',
  1: 'Canceled',
  2: 'Unknown',
  3: 'InvalidArgument',
  4: 'DeadlineExceeded',
  5: 'NotFound',
  6: 'AlreadyExists',
  7: 'PermissionDenied',
  8: 'ResourceExhausted',
  9: 'FailedPrecondition',
  10: 'Aborted',
  11: 'OutOfRange',
  12: 'Unimplemented',
  13: 'Internal',
  14: 'Unavailable',
  15: 'DataLoss',
  16: 'Unauthenticated',
};

/** A runtime's error: a gRPC status, written as grpc-go writes one (`rpc error: code = X desc = Y`). */
export class RuntimeError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
  ) {
    super(`rpc error: code = ${codeNames[code] ?? `Code(${code})`} desc = ${description}`);
  }
}
