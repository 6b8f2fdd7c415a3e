export {
  NodeLifecycleController,
  NODE_LEASE_NAMESPACE,
  type NodeLifecycleOptions,
} from './node-lifecycle-controller.js';
export { NodesModule, type NodesOptions } from './nodes.module.js';
export { noEvents, type RecordEvent } from './events.js';
export { TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE, taintsOf, type Taint } from './taints.js';
export { defaultDisruption, type DisruptionOptions } from './zones.js';
export { place, podRequests, unfitReasons, type Placement } from './scheduling.js';
export { evictionDecision, tolerates, tolerationsOf, type Toleration } from './tolerations.js';
export { Scheduler, awaitsScheduling, DEFAULT_SCHEDULER } from './scheduler.js';
export { TaintEvictionController } from './taint-eviction-controller.js';
