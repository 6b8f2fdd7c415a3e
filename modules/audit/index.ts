export { Auditor, RequestAudit, isLongRunning, type AuditedRequest, type AuditCounters } from './auditor.js';
export { AuditModule, AUDITOR } from './audit.module.js';
export { loadAuditPolicy, openAuditor, type AuditOptions } from './load.js';
export { registerAuditMetrics } from './metrics.js';
export { nowMicros, sourceIPs } from './event.js';
export {
  parsePolicy,
  PolicyEvaluator,
  type Policy,
  type PolicyRule,
  type Level,
  type Stage,
  type AuditAttributes,
  type RequestAuditConfig,
} from './policy.js';
export { DatabaseBackend, databaseBackendDefaults } from './database-backend.js';
export { eventJson, type AuditEvent } from './sinks.js';
export { RotatingFile } from './rotating-file.js';
