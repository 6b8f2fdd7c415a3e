/**
 * Which built-in API versions and resources are served: each version's default by its level (stable on, alpha
 * off, beta off unless introduced before 1.22), then --runtime-config in kube's order of precedence: api/all,
 * api/ga, api/beta, api/alpha, then <group>/<version>, then <group>/<version>/<resource> (highest). A version
 * whose removal release has come is never served. Everything is read from the definitions: a kind is data.
 */
import type { ResourceDefinition } from '../registry/index.js';
import { FlagError } from './flag-error.js';
import { compareReleases, parseRelease, reached, servedRelease, type Release } from './release.js';
import type { RuntimeConfig, RuntimeConfigEntry } from './runtime-config.js';
import { versionLevel } from './version-level.js';

const FLAG = '--runtime-config';

/** Beta versions older than this release are on by default (spec part2 "API version levels"). */
const BETA_OFF_BY_DEFAULT_FROM = '1.22';

const levelOrder = ['all', 'ga', 'beta', 'alpha'] as const;

function onByDefault(def: ResourceDefinition, version: string): boolean {
  const level = versionLevel(version);
  if (level === 'ga') return true;
  if (level === 'alpha') return false;
  const introduced = def.lifecycle?.[version]?.introduced;
  return (
    introduced !== undefined &&
    compareReleases(parseRelease(introduced), parseRelease(BETA_OFF_BY_DEFAULT_FROM)) < 0
  );
}

/** The version's removal release has come (kube stops serving it). */
export function isRemoved(
  def: ResourceDefinition,
  version: string,
  release: Release = servedRelease,
): boolean {
  const removed = def.lifecycle?.[version]?.removed;
  return removed !== undefined && reached(removed, release);
}

export class ApiEnablement {
  constructor(
    private readonly entries: readonly RuntimeConfigEntry[] = [],
    private readonly release: Release = servedRelease,
  ) {}

  /** Whether `def` is served at `version` (its resource, with every subresource). */
  enabled(def: ResourceDefinition, version: string): boolean {
    if (isRemoved(def, version, this.release)) return false;
    let on = onByDefault(def, version);
    const level = versionLevel(version);
    for (const wanted of levelOrder) {
      const entry = this.entries.find((e) => e.target.kind === 'level' && e.target.level === wanted);
      if (entry && (wanted === 'all' || wanted === level)) on = entry.enabled;
    }
    for (const e of this.entries) {
      const t = e.target;
      if (t.kind === 'version' && t.group === def.group && t.version === version) on = e.enabled;
    }
    for (const e of this.entries) {
      const t = e.target;
      if (
        t.kind === 'resource' &&
        t.group === def.group &&
        t.version === version &&
        t.resource === def.resource
      )
        on = e.enabled;
    }
    return on;
  }

  /**
   * The definitions as served: each with its enabled versions only (in their order), kinds with none left
   * out. An untouched definition is returned as is.
   */
  served(defs: readonly ResourceDefinition[]): ResourceDefinition[] {
    const out: ResourceDefinition[] = [];
    for (const def of defs) {
      const versions = def.versions.filter((v) => this.enabled(def, v));
      if (versions.length === def.versions.length) out.push(def);
      else if (versions.length > 0) out.push({ ...def, versions });
    }
    return out;
  }
}

/**
 * Checks --runtime-config against the kinds this server has (kube's rules: an unknown group, a version the
 * group does not have, or `api/all=false` alone stop the server; unlike kube, so does a resource the version
 * does not have) and returns the enablement to serve with.
 */
export function resolveApiEnablement(
  config: RuntimeConfig,
  defs: readonly ResourceDefinition[],
  release: Release = servedRelease,
): ApiEnablement {
  const { entries } = config;
  if (entries.length === 1 && entries[0].key === 'api/all' && !entries[0].enabled) {
    throw new FlagError(FLAG, undefined, 'invalid key with only api/all=false: nothing would be served');
  }
  const unknownGroups = new Set<string>();
  for (const { key, target } of entries) {
    if (target.kind === 'level') continue;
    const inGroup = defs.filter((d) => d.group === target.group);
    if (inGroup.length === 0) {
      unknownGroups.add(target.group);
      continue;
    }
    const gv = target.group ? `${target.group}/${target.version}` : target.version;
    const inVersion = inGroup.filter((d) => d.versions.includes(target.version));
    if (inVersion.length === 0) {
      throw new FlagError(FLAG, undefined, `group version ${gv} that has not been registered`);
    }
    if (target.kind === 'resource' && !inVersion.some((d) => d.resource === target.resource)) {
      throw new FlagError(FLAG, undefined, `${key}: ${gv} has no resource "${target.resource}"`);
    }
  }
  if (unknownGroups.size > 0) {
    throw new FlagError(FLAG, undefined, `unknown api groups ${[...unknownGroups].join(',')}`);
  }
  return new ApiEnablement(entries, release);
}
