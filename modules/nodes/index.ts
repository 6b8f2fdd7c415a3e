export { place, podRequests, unfitReasons, type Placement } from './scheduling.js';
export { evictionDecision, tolerates, taintsOf, tolerationsOf, type Taint, type Toleration } from './taints.js';
