/**
 * Versioning (spec part2 "Versioning"): feature gates (--feature-gates), API version enablement
 * (--runtime-config), deprecation warnings and the record of deprecated APIs served, and the APIs Kubernetes no
 * longer serves.
 */
export {
  kubeFeatures,
  ALL_ALPHA,
  ALL_BETA,
  type FeatureName,
  type FeatureSpec,
  type Stage,
} from './features.js';
export { FeatureGates, parseFeatureGates, type FeatureGateState } from './feature-gates.js';
export { FlagError } from './flag-error.js';
export { versionLevel, type VersionLevel } from './version-level.js';
export {
  parseRuntimeConfig,
  type RuntimeConfig,
  type RuntimeConfigEntry,
  type RuntimeConfigTarget,
} from './runtime-config.js';
export { ApiEnablement, resolveApiEnablement, isRemoved } from './api-enablement.js';
export { deprecationOf, DeprecatedApis, type Deprecation, type DeprecatedApiRequest } from './deprecation.js';
export { noLongerServed, notServedError } from './removed-apis.js';
export { servedRelease, parseRelease, compareReleases, reached, type Release } from './release.js';
export { VersioningModule, FEATURE_GATES, API_ENABLEMENT } from './versioning.module.js';
