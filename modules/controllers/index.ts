export { NamespaceController, BUILTIN_NAMESPACES } from './namespace-controller.js';
export { ControllersModule, CONTROLLERS_LEASE, type ControllersOptions } from './controllers.module.js';
export { ControllerRunner } from './runner.js';
export { enabledControllers, knownControllers, type Controller, type ControllerName } from './controller.js';
export { TokenCleaner } from './token-cleaner.js';
export { BootstrapSigner } from './bootstrap-signer.js';
export { clusterInfoKubeconfig, type ClusterEndpoint } from './cluster-info.js';
export { ServiceAccountController, DEFAULT_SERVICE_ACCOUNT } from './serviceaccount-controller.js';
export { RootCaPublisher, ROOT_CA_CONFIGMAP, ROOT_CA_KEY } from './root-ca-publisher.js';
export { ServiceAccountTokenController } from './serviceaccount-token-controller.js';
export { DefaultPolicy } from './default-policy.js';
export { GarbageCollector } from './garbage-collector.js';
export {
  LeaderElector,
  microTime,
  type LeaderElectionOptions,
  type LeaderCallbacks,
} from './leader-election.js';
export { isNotFound, isConflict, isAlreadyExists } from './api-errors.js';
