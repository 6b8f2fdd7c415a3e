/**
 * The node agent's checkpoint endpoint (spec part2 "Node-agent checkpoint"): the kubelet's authentication and
 * authorization of its HTTPS API, POST /checkpoint/{namespace}/{pod}/{container}, CRI CheckpointContainer over
 * gRPC on a unix socket, and the simulated runtime's archive.
 */
export type { ContainerOnNode, PodOnNode, PodsOnNode } from './pods.js';
export { GrpcCode, RuntimeError, type CheckpointRequest, type ContainerRuntime } from './runtime.js';
export { archivePath, checkpointsDir, rfc3339 } from './archive.js';
export { tarArchive, type TarEntry } from './tar.js';
export { SimulatedRuntime } from './simulated-runtime.js';
export {
  CHECKPOINT_CONTAINER,
  decodeCheckpointContainerRequest,
  encodeCheckpointContainerRequest,
  type CheckpointContainerRequest,
} from './cri-messages.js';
export { grpcFrame, grpcTimeout, grpcUnary, grpcUnframe } from './grpc.js';
export { CriRuntime, unixSocketPath } from './cri-runtime.js';
export {
  KubeletAccess,
  nodeRequestAttributes,
  type AccessDecision,
  type KubeletAccessOptions,
} from './access.js';
export { CheckpointService, type Answer, type CheckpointOptions } from './checkpoint.js';
export { kubeletApi, type KubeletApiOptions } from './http.js';
