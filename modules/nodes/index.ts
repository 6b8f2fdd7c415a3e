export {
  NodeLifecycleController,
  NODE_LEASE_NAMESPACE,
  type NodeLifecycleOptions,
} from './node-lifecycle-controller.js';
export { NodesModule, type NodesOptions } from './nodes.module.js';
export { noEvents, type RecordEvent } from './events.js';
export { TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE, type Taint } from './taints.js';
export { defaultDisruption, type DisruptionOptions } from './zones.js';
