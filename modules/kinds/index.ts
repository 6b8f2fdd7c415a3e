export { builtinDefinitions } from './builtin.js';
export { KindsModule } from './kinds.module.js';
export { leaseDefinition } from './coordination/lease.js';
export { configMapDefinition } from './core/configmap.js';
export { eventDefinition } from './core/event.js';
export { namespaceDefinition } from './core/namespace.js';
export { secretDefinition } from './core/secret.js';
export { serviceAccountDefinition } from './core/serviceaccount.js';
export { ageColumn, nameColumn } from './columns.js';
