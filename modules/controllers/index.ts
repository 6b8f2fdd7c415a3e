export { NamespaceController, BUILTIN_NAMESPACES } from './namespace-controller.js';
export { ControllersModule, type ControllersOptions } from './controllers.module.js';
export { ControllerRunner } from './runner.js';
export { enabledControllers, knownControllers, type Controller, type ControllerName } from './controller.js';
export { Informer, objectKeyOf, splitKey, type InformerEvent } from './informer.js';
export { WorkQueue } from './work-queue.js';
export { TokenCleaner } from './token-cleaner.js';
export { BootstrapSigner } from './bootstrap-signer.js';
export { clusterInfoKubeconfig, type ClusterEndpoint } from './cluster-info.js';
