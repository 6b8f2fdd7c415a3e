export { NamespaceController, BUILTIN_NAMESPACES } from './namespace-controller.js';
export { ControllersModule, type ControllersOptions } from './controllers.module.js';
export { ControllerRunner } from './runner.js';
export { enabledControllers, knownControllers, type Controller, type ControllerName } from './controller.js';
export { Informer, objectKeyOf, splitKey, type InformerEvent } from './informer.js';
export { WorkQueue } from './work-queue.js';
export { ServiceAccountController, DEFAULT_SERVICE_ACCOUNT } from './serviceaccount-controller.js';
export { RootCaPublisher, ROOT_CA_CONFIGMAP, ROOT_CA_KEY } from './root-ca-publisher.js';
export { ServiceAccountTokenController } from './serviceaccount-token-controller.js';
