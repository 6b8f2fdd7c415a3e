/** The audit flags (kube-apiserver's names and defaults; --audit-database and --audit-retention are pgkube's). */
import path from 'node:path';
import type { FlagSpec } from './config.js';
import { boolean, count, parseDuration, text } from './flag-values.js';

export interface AuditFlagValues {
  /** --audit-policy-file: an audit.k8s.io/v1 Policy; unset: nothing is audited */
  auditPolicyFile?: string;
  /** --audit-log-path: the JSON lines log, `-` for stdout; unset: no log backend */
  auditLogPath?: string;
  /** --audit-log-maxage: days a rotated log is kept (0: no limit) */
  auditLogMaxAge: number;
  /** --audit-log-maxbackup: rotated logs kept (0: all) */
  auditLogMaxBackup: number;
  /** --audit-log-maxsize: megabytes before the log is rotated (0: lumberjack's 100) */
  auditLogMaxSize: number;
  /** --audit-database: events also go to the audit_events table (view k8s.audit_events) */
  auditDatabase: boolean;
  /** --audit-retention: rows of audit_events older than this are pruned */
  auditRetentionMs: number;
}

export const auditFlagDefaults: AuditFlagValues = {
  auditLogMaxAge: 0,
  auditLogMaxBackup: 0,
  auditLogMaxSize: 0,
  auditDatabase: false,
  auditRetentionMs: 7 * 24 * 3_600_000,
};

export const auditFlags: Record<string, FlagSpec> = {
  'audit-policy-file': {
    key: 'auditPolicyFile',
    parse: (v) => path.resolve(v),
    help: 'audit.k8s.io/v1 Policy: which requests are audited, at which level; unset: none',
  },
  'audit-log-path': {
    key: 'auditLogPath',
    parse: (v) => (v === '-' ? v : path.resolve(text(v))),
    help: 'audit events as JSON lines to this file (0600), - for stdout',
  },
  'audit-log-maxage': {
    key: 'auditLogMaxAge',
    parse: count,
    help: 'days a rotated audit log is kept (default 0: no limit)',
  },
  'audit-log-maxbackup': {
    key: 'auditLogMaxBackup',
    parse: count,
    help: 'rotated audit logs kept (default 0: all)',
  },
  'audit-log-maxsize': {
    key: 'auditLogMaxSize',
    parse: count,
    help: 'megabytes an audit log grows to before it is rotated (default 0: 100)',
  },
  'audit-database': {
    key: 'auditDatabase',
    parse: boolean,
    bool: true,
    help: 'audit events also go to PostgreSQL (view k8s.audit_events), in batches, off the request path',
  },
  'audit-retention': {
    key: 'auditRetentionMs',
    parse: parseDuration,
    help: 'audit rows in PostgreSQL older than this are pruned (default 168h: 7 days)',
  },
};
