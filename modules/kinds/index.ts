export { builtinDefinitions } from './builtin.js';
export { KindsModule } from './kinds.module.js';
export { leaseDefinition } from './coordination/lease.js';
export { selfSubjectReviewDefinition } from './authentication/selfsubjectreview.js';
export {
  localSubjectAccessReviewDefinition,
  selfSubjectAccessReviewDefinition,
  selfSubjectRulesReviewDefinition,
  subjectAccessReviewDefinition,
} from './authorization/access-reviews.js';
export { tokenReviewDefinition } from './authentication/tokenreview.js';
export { configMapDefinition } from './core/configmap.js';
export { eventDefinition } from './core/event.js';
export { eventsEventDefinition } from './events/event.js';
export { coreToEvents, eventsToCore } from './events/event-conversion.js';
export { namespaceDefinition } from './core/namespace.js';
export { nodeDefinition } from './core/node.js';
export { taintEffects } from './core/node-validation.js';
export { secretDefinition } from './core/secret.js';
export { serviceAccountDefinition } from './core/serviceaccount.js';
export { serviceDefinition } from './core/service.js';
export { endpointsDefinition } from './core/endpoints.js';
export { endpointSliceDefinition } from './discovery/endpointslice.js';
export type {
  Service,
  ServiceSpec,
  ServicePort,
  ServiceType,
  PortProtocol,
  LoadBalancerIngress,
  Endpoints,
  EndpointSubset,
  EndpointAddress,
  EndpointPort,
  ObjectReference,
} from './core/service-types.js';
export {
  labelServiceName,
  type EndpointSlice,
  type EndpointSliceEndpoint,
  type EndpointSlicePort,
  type AddressType,
} from './discovery/endpointslice-types.js';
export { ageColumn, nameColumn, humanDuration, timestampSince } from './columns.js';
export { virtualKind, type VirtualKind } from './virtual.js';
export { tokenRequestSchema } from './authentication/token-request.js';
export { clusterRoleDefinition, roleDefinition } from './rbac/roles.js';
export { clusterRoleBindingDefinition, roleBindingDefinition } from './rbac/bindings.js';
export { apiServiceDefinition } from './apiregistration/apiservice.js';
export {
  APIREGISTRATION_GROUP,
  AVAILABLE_CONDITION,
  apiServiceCondition,
  apiServiceName,
  localAvailableCondition,
  setApiServiceCondition,
  type APIService,
  type APIServiceCondition,
  type APIServiceServiceReference,
  type APIServiceSpec,
} from './apiregistration/apiservice-types.js';
export { objAt, listAt, strAt, numAt, type Obj } from './values.js';
export { podDefinition } from './core/pod.js';
export { boundPod } from './core/pod-bind.js';
export {
  effectiveSeccompProfile,
  validateSeccompProfile,
  type SeccompProfile,
  type SeccompProfileType,
} from './core/pod-seccomp.js';
