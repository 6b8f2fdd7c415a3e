/**
 * The audit flags read at start: the policy file (kube's messages, `: from file <path>`), the log file opened
 * (0600) or stdout, the database backend connected. No policy, or no backend: no auditing, as kube.
 */
import { readFile } from 'node:fs/promises';
import { connect } from '../storage/index.js';
import { Auditor } from './auditor.js';
import { DatabaseBackend, databaseBackendDefaults } from './database-backend.js';
import { PolicyEvaluator, parsePolicy, type Policy } from './policy.js';
import { RotatingFile, type RotationOptions } from './rotating-file.js';
import { LogSink, type AuditSink } from './sinks.js';

export interface AuditOptions {
  /** --audit-policy-file, read */
  policy?: Policy;
  /** --audit-log-path; `-`: stdout */
  logPath?: string;
  rotation: RotationOptions;
  /** --audit-database: the server's database */
  databaseUrl?: string;
  /** --audit-retention */
  retentionMs: number;
  log: (message: string) => void;
}

/** kube's LoadPolicyFromFile. */
export async function loadAuditPolicy(file: string): Promise<{ policy: Policy; warnings: string[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new Error(`failed to read file path "${file}": ${(e as Error).message}`);
  }
  try {
    return parsePolicy(text);
  } catch (e) {
    throw new Error(`${(e as Error).message}: from file ${file}`);
  }
}

/** The Auditor of the flags, or undefined when nothing is audited. */
export function openAuditor(o: AuditOptions): Auditor | undefined {
  if (!o.policy || (!o.logPath && !o.databaseUrl)) return undefined;
  const sinks: AuditSink[] = [];
  const lost = (plugin: string, events: number, error: unknown) => {
    auditor.lost(plugin, events);
    o.log(
      `audit: ${events} event(s) lost (${plugin}): ${error instanceof Error ? error.message : String(error)}`,
    );
  };
  if (o.logPath) {
    const out =
      o.logPath === '-'
        ? { write: (t: string) => process.stdout.write(t) }
        : new RotatingFile(o.logPath, o.rotation);
    sinks.push(new LogSink(out, (n, e) => lost('log', n, e)));
  }
  if (o.databaseUrl) {
    // events are already written after their request goes on: a commit need not wait for its WAL flush
    // (PostgreSQL's WAL writer flushes within a fraction of a second), so the audit's commits cost no fsync
    const sql = connect(o.databaseUrl, 1, { synchronous_commit: 'off' });
    const backend = new DatabaseBackend(sql, {
      ...databaseBackendDefaults,
      retentionMs: o.retentionMs,
      onError: (plugin, n, e) => lost(plugin, n, e),
    });
    sinks.push({
      process: (event) => backend.process(event),
      close: async () => {
        await backend.close();
        await sql.end({ timeout: 2 });
      },
    });
  }
  const auditor: Auditor = new Auditor(new PolicyEvaluator(o.policy), sinks);
  return auditor;
}
