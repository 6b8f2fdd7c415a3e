/**
 * The node lifecycle controller's flags (kube-controller-manager's names and defaults). config.ts reads them
 * with the rest.
 */
import type { FlagSpec } from './config.js';
import { ConfigError, parseDuration } from './flag-values.js';

export interface NodeFlagValues {
  /** --node-monitor-grace-period: how long a node may be silent before it is marked Unknown */
  nodeMonitorGracePeriodMs: number;
  /** --node-startup-grace-period: the same for a node that never posted its Ready condition */
  nodeStartupGracePeriodMs: number;
  /** --node-monitor-period: how often the node lifecycle controller looks at every node */
  nodeMonitorPeriodMs: number;
  /** --node-eviction-rate: fresh NoExecute taints per second and zone */
  nodeEvictionRate: number;
}

export const nodeFlagDefaults: NodeFlagValues = {
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
  nodeMonitorPeriodMs: 5_000,
  nodeEvictionRate: 0.1,
};

function rate(v: string, flag: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new ConfigError(`${flag}: "${v}" is not a rate (a number ≥ 0)`);
  return n;
}

export const nodeFlags: Record<string, FlagSpec> = {
  'node-monitor-grace-period': {
    key: 'nodeMonitorGracePeriodMs',
    parse: parseDuration,
    help: 'a node whose Lease and status are silent this long gets Ready=Unknown and the unreachable taints (default 50s)',
  },
  'node-startup-grace-period': {
    key: 'nodeStartupGracePeriodMs',
    parse: parseDuration,
    help: 'the same for a node that never posted its Ready condition (default 1m0s)',
  },
  'node-monitor-period': {
    key: 'nodeMonitorPeriodMs',
    parse: parseDuration,
    help: 'how often the node lifecycle controller looks at every node (default 5s)',
  },
  'node-eviction-rate': {
    key: 'nodeEvictionRate',
    parse: rate,
    help: 'nodes per second and zone that get a fresh NoExecute taint (default 0.1)',
  },
};
