/**
 * Kube's metric stability framework (spec part2, deprecation rule 11): every metric has a class (ALPHA, BETA,
 * STABLE) shown in its help; a deprecated one says so in its help and warns when registered; three minor
 * releases after its deprecation it is hidden (not registered) unless `--show-hidden-metrics-for-version`
 * names the previous minor release, and one release after that it is gone.
 */
export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

export interface MetricSpec {
  name: string;
  help: string;
  stability: StabilityLevel;
  /** `x.y`: the release that deprecated it */
  deprecatedVersion?: string;
}

export class MetricsConfigError extends Error {}

function minorOf(version: string): { major: number; minor: number } {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(version);
  if (!m) throw new MetricsConfigError(`"${version}" is not a version (major.minor)`);
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** kube's form: `[STABLE] <help>`, and for a deprecated metric `[ALPHA] (Deprecated from 1.30) <help>` */
export function annotatedHelp(spec: MetricSpec): string {
  const deprecated = spec.deprecatedVersion ? `(Deprecated from ${spec.deprecatedVersion}) ` : '';
  return `[${spec.stability}] ${deprecated}${spec.help}`;
}

export type Visibility = 'shown' | 'hidden' | 'deleted';

/** shown; hidden when deprecated exactly three minor releases before `current`; deleted when earlier */
export function visibility(spec: MetricSpec, current: string): Visibility {
  if (!spec.deprecatedVersion) return 'shown';
  const d = minorOf(spec.deprecatedVersion);
  const c = minorOf(current);
  const age = d.major < c.major ? Infinity : c.minor - d.minor;
  return age < 3 ? 'shown' : age === 3 ? 'hidden' : 'deleted';
}

/**
 * Validates `--show-hidden-metrics-for-version`: as in kube, only the previous minor release may be named
 * (hidden metrics come back for one release, so that their users can move off them).
 */
export function validateShowHidden(value: string | undefined, current: string): void {
  if (value === undefined || value === '') return;
  const c = minorOf(current);
  const previous = `${c.major}.${c.minor - 1}`;
  let v;
  try {
    v = minorOf(value);
  } catch {
    v = undefined;
  }
  if (!v || v.major !== c.major || v.minor !== c.minor - 1) {
    throw new MetricsConfigError(
      `--show-hidden-metrics-for-version: must be omitted or have the value '${previous}'; only the previous minor version is allowed`,
    );
  }
}
