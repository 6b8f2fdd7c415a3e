export type { AdmissionPlugin } from './plugin.js';
export { AdmissionChain } from './chain.js';
export { NamespaceLifecycle } from './namespace-lifecycle.js';
export { AdmissionModule } from './admission.module.js';
