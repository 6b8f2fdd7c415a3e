/** The audit counters as kube's apiserver_audit_* metrics, told at scrape. */
import { Counter } from 'prom-client';
import type { ApiMetrics } from '../metrics/index.js';
import type { AuditCounters } from './auditor.js';

export function registerAuditMetrics(metrics: ApiMetrics, counters: AuditCounters): void {
  const reported = { events: 0, levels: {} as Record<string, number>, errors: {} as Record<string, number> };
  const counter = (name: string, help: string, labelNames: string[], collect: (c: Counter) => void) =>
    metrics.define({ name, help, stability: 'ALPHA' }, (h) => {
      return new Counter({
        name,
        help: h,
        labelNames,
        registers: [metrics.registry],
        collect() {
          collect(this);
        },
      });
    });
  /** each label's growth since the last scrape */
  const grow = (c: Counter, label: string, now: Record<string, number>, before: Record<string, number>) => {
    for (const [value, n] of Object.entries(now)) {
      if (n > (before[value] ?? 0)) c.inc({ [label]: value }, n - (before[value] ?? 0));
      before[value] = n;
    }
  };
  counter(
    'apiserver_audit_event_total',
    'Counter of audit events generated and sent to the audit backend.',
    [],
    (c) => {
      if (counters.events > reported.events) c.inc(counters.events - reported.events);
      reported.events = counters.events;
    },
  );
  counter(
    'apiserver_audit_error_total',
    'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
    ['plugin'],
    (c) => grow(c, 'plugin', counters.errors, reported.errors),
  );
  counter(
    'apiserver_audit_level_total',
    'Counter of policy levels for audit events (1 per request).',
    ['level'],
    (c) => grow(c, 'level', counters.levels, reported.levels),
  );
}
