/**
 * `--runtime-config`: comma-separated `<key>[=<bool>]` (an omitted value means true) switching built-in API
 * versions and resources on or off. Keys, as kube-apiserver spells them:
 *   api/all, api/ga, api/beta, api/alpha        every version of that level
 *   <group>/<version>                           one version, e.g. batch/v1
 *   <group>/<version>/<resource>                one resource of it, e.g. storage.k8s.io/v1beta1/csistoragecapacities
 *   v1, /v1, api/v1 (and v1/<resource>, ...)   the core group
 * This file reads the flag; api-enablement.ts checks it against the served kinds and applies it.
 */
import { FlagError, parseBool, parseBoolError } from './flag-error.js';
import type { VersionLevel } from './version-level.js';

export type RuntimeConfigTarget =
  | { kind: 'level'; level: VersionLevel | 'all' }
  | { kind: 'version'; group: string; version: string }
  | { kind: 'resource'; group: string; version: string; resource: string };

export interface RuntimeConfigEntry {
  /** the key as given */
  key: string;
  target: RuntimeConfigTarget;
  enabled: boolean;
}

export interface RuntimeConfig {
  entries: RuntimeConfigEntry[];
  warnings: string[];
}

const FLAG = '--runtime-config';

const levelKeys: Record<string, VersionLevel | 'all'> = {
  'api/all': 'all',
  'api/ga': 'ga',
  'api/beta': 'beta',
  'api/alpha': 'alpha',
};

/** kube-apiserver's spellings of the core group, `v1` and `api/v1` (with a resource after them), as `/v1`. */
function coreAlias(key: string): string | undefined {
  for (const prefix of ['api/', '']) {
    const rest = key.slice(prefix.length);
    if (key.startsWith(prefix) && (rest === 'v1' || rest.startsWith('v1/'))) return `/${rest}`;
  }
  return undefined;
}

function targetOf(key: string): RuntimeConfigTarget {
  const level = levelKeys[key];
  if (level) return { kind: 'level', level };
  const tokens = (coreAlias(key) ?? key).split('/');
  if (tokens.length < 2 || tokens.length > 3 || tokens[1] === '' || tokens[2] === '') {
    throw new FlagError(FLAG, undefined, `invalid key ${key}: use <group>/<version>[/<resource>] or api/all`);
  }
  const [group, version, resource] = tokens;
  if (resource === undefined) return { kind: 'version', group, version };
  if (resource.toLowerCase() !== resource) {
    throw new FlagError(
      FLAG,
      undefined,
      `invalid key ${key}: group/version/resource and resource is always lowercase plural, not "${resource}"`,
    );
  }
  return { kind: 'resource', group, version, resource };
}

function targetId(t: RuntimeConfigTarget): string {
  if (t.kind === 'level') return `api/${t.level}`;
  const gv = t.group ? `${t.group}/${t.version}` : t.version;
  return t.kind === 'version' ? gv : `${gv}/${t.resource}`;
}

function valueOf(key: string, raw: string | undefined, target: RuntimeConfigTarget): boolean {
  if (raw === undefined || raw === '') return true;
  // kube reads the level switches as exactly true or false
  const value = target.kind === 'level' ? { true: true, false: false }[raw] : parseBool(raw);
  if (value === undefined) {
    throw new FlagError(FLAG, undefined, `invalid value of ${key}: ${raw}, err: ${parseBoolError(raw)}`);
  }
  return value;
}

/** Reads the values of every --runtime-config flag; throws FlagError on a malformed or contradictory one. */
export function parseRuntimeConfig(flagValues: readonly string[]): RuntimeConfig {
  const entries: RuntimeConfigEntry[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, RuntimeConfigEntry>();
  for (const value of flagValues) {
    for (const item of value.split(',')) {
      if (item.trim() === '') continue;
      const eq = item.indexOf('=');
      const key = (eq < 0 ? item : item.slice(0, eq)).trim();
      const raw = eq < 0 ? undefined : item.slice(eq + 1).trim();
      if (key === 'api/legacy') {
        warnings.push('--runtime-config: api/legacy is deprecated and has no effect');
        continue;
      }
      const target = targetOf(key);
      const entry = { key, target, enabled: valueOf(key, raw, target) };
      const id = targetId(target);
      const earlier = seen.get(id);
      if (earlier && earlier.enabled !== entry.enabled) {
        throw new FlagError(
          FLAG,
          undefined,
          `conflicting values for ${id}: ${earlier.key}=${earlier.enabled} and ${key}=${entry.enabled}`,
        );
      }
      if (earlier) continue;
      seen.set(id, entry);
      entries.push(entry);
    }
  }
  return { entries, warnings };
}
