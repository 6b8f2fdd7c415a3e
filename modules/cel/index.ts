export {
  celEnvironment,
  type CelEnvironment,
  type CelEnvironmentOptions,
  type CelProgram,
  type CelResult,
  type CelCompileResult,
  type ObjectTypeDeclaration,
} from './environment.js';
export { markList, listSemantics, unstructuredEquals, type ListSemantics } from './unstructured.js';
export {
  costErrorMessage,
  costLimitExceededMessage,
  perCallLimit,
  runtimeCELCostBudget,
  staticEstimatedCostLimit,
  staticEstimatedCRDCostLimit,
  maxRequestSizeBytes,
} from './cost.js';
export {
  CelAuthorizer,
  type CelAuthorize,
  type CelAuthzAttributes,
  type CelAuthzDecision,
  type CelAuthzUser,
} from './library/authorizer.js';
export { Quantity } from './library/quantity.js';

/** the CEL type to declare the `authorizer` variable with */
export const authorizerType = 'kubernetes.authorization.Authorizer';
export { estimateCost, type CostEstimate, type SizeSchema } from './estimate.js';
