export { ApiextensionsModule } from './apiextensions.module.js';
export { CrdController } from './crd-controller.js';
export { CrdServing } from './crd-serving.js';
export { servedKindOf } from './served-kind.js';
export { readApiDefinitions, DEFINITIONS_MANAGER, type ApiDefinition } from './definitions.js';
export { crdDefinition } from './crd/definition.js';
