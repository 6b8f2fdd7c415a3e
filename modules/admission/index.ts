export type { AdmissionPlugin } from './plugin.js';
export { AdmissionChain } from './chain.js';
export { NamespaceLifecycle } from './namespace-lifecycle.js';
export { NodeRestriction } from './node-restriction.js';
export { AdmissionModule, type AdmissionOptions } from './admission.module.js';
export { HostNamespaces, type NamespaceSource, type NamespaceState } from './namespace-source.js';
