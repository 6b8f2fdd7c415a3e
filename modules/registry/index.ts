export * from './definition.js';
export { Registry, storageKey } from './registry.js';
export { GenericStore } from './generic-store.js';
export { NamespaceController, BUILTIN_NAMESPACES } from './namespace-controller.js';
export { RegistryModule, type Enablement } from './registry.module.js';
