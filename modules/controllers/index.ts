export { NamespaceController, BUILTIN_NAMESPACES } from './namespace-controller.js';
export { ControllersModule } from './controllers.module.js';
