export { AggregationModule } from './aggregation.module.js';
export { LocalApiServices } from './local-apiservices.js';
export {
  AUTOMANAGED_LABEL,
  MANAGED_CONTINUOUSLY,
  MANAGED_ON_START,
  automanagedAs,
  desiredApiServices,
} from './desired-apiservices.js';
export { builtinPriority, crdPriority, type ApiServicePriority } from './priorities.js';
export {
  APIREGISTRATION_GROUP,
  AVAILABLE_CONDITION,
  apiServiceCondition,
  apiServiceDefinition,
  apiServiceName,
  localAvailableCondition,
  setApiServiceCondition,
  type APIService,
  type APIServiceCondition,
  type APIServiceServiceReference,
  type APIServiceSpec,
} from '../kinds/index.js';
export { SelfRegistration, type SelfRegistrationOptions, REGISTERED_FOR_LABEL } from './self-registration.js';
export { droppedHeader, escapeExtraKey, identityHeaders } from './identity-headers.js';
