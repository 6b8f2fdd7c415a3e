/**
 * `--feature-gates=Name=true|false,...` over a registry of gates, with kube's rules and messages: an unknown
 * gate, a value that is not a boolean, a locked (or GA) gate set away from its default, or a gate enabled
 * without a gate it requires stops the server; setting a deprecated or GA gate warns.
 */
import {
  ALL_ALPHA,
  ALL_BETA,
  kubeFeatures,
  type FeatureName,
  type FeatureSpec,
  type Stage,
} from './features.js';
import { FlagError, parseBool, parseBoolError } from './flag-error.js';

export interface FeatureGateState {
  name: string;
  stage: Stage;
  default: boolean;
  enabled: boolean;
  locked: boolean;
}

export class FeatureGates<Name extends string = FeatureName> {
  constructor(
    private readonly known: Readonly<Record<string, FeatureSpec>>,
    private readonly values: ReadonlyMap<string, boolean>,
  ) {}

  /** The gates at their defaults. */
  static defaults(): FeatureGates {
    return new FeatureGates(kubeFeatures, new Map());
  }

  enabled(name: Name): boolean {
    const spec = this.known[name];
    // asking about a gate nobody registered is a programming error, as in kube
    if (!spec) throw new Error(`feature "${name}" is not registered in the feature gates`);
    return this.values.get(name) ?? spec.default;
  }

  /** Every gate, sorted by name. */
  list(): FeatureGateState[] {
    return Object.keys(this.known)
      .sort()
      .map((name) => {
        const spec = this.known[name];
        return {
          name,
          stage: spec.stage,
          default: spec.default,
          enabled: this.values.get(name) ?? spec.default,
          locked: isLocked(spec),
        };
      });
  }
}

/** GA gates are non-operational: turning one off would silently do nothing, so it is refused like a lock. */
function isLocked(spec: FeatureSpec): boolean {
  return spec.lockToDefault === true || spec.stage === 'GA';
}

const flagName = '--feature-gates';

/** `Name=bool` pairs of every --feature-gates flag, later ones winning. */
function parsePairs(flagValues: readonly string[]): Map<string, boolean> {
  const pairs = new Map<string, boolean>();
  for (const value of flagValues) {
    for (const item of value.split(',')) {
      if (item.trim() === '') continue;
      const eq = item.indexOf('=');
      const key = (eq < 0 ? item : item.slice(0, eq)).trim();
      if (eq < 0) throw new FlagError(flagName, value, `missing bool value for ${key}`);
      const raw = item.slice(eq + 1).trim();
      const parsed = parseBool(raw);
      if (parsed === undefined) {
        throw new FlagError(flagName, value, `invalid value of ${key}=${raw}, err: ${parseBoolError(raw)}`);
      }
      pairs.set(key, parsed);
    }
  }
  return pairs;
}

/**
 * Parses the values of every --feature-gates flag against `known` (default: the kube gates). Returns the
 * gates and the warnings to log; throws FlagError for the first problem.
 */
export function parseFeatureGates<Name extends string = FeatureName>(
  flagValues: readonly string[],
  known: Readonly<Record<string, FeatureSpec>> = kubeFeatures,
): { gates: FeatureGates<Name>; warnings: string[] } {
  const pairs = parsePairs(flagValues);
  const shown = flagValues.join(',');
  const values = new Map<string, boolean>();
  const warnings: string[] = [];
  for (const [name, value] of pairs) {
    if (name === ALL_ALPHA || name === ALL_BETA) continue;
    const spec = known[name];
    if (!spec) throw new FlagError(flagName, shown, `unrecognized feature gate: ${name}`);
    if (isLocked(spec) && value !== spec.default) {
      throw new FlagError(
        flagName,
        shown,
        `cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`,
      );
    }
    values.set(name, value);
    if (spec.stage === 'DEPRECATED') {
      warnings.push(
        `Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`,
      );
    } else if (spec.stage === 'GA') {
      warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
    }
  }
  // AllAlpha / AllBeta reach every gate of their stage the flags do not name themselves
  for (const [all, stage] of [
    [ALL_ALPHA, 'ALPHA'],
    [ALL_BETA, 'BETA'],
  ] as const) {
    const value = pairs.get(all);
    if (value === undefined) continue;
    for (const [name, spec] of Object.entries(known)) {
      if (spec.stage === stage && !values.has(name) && !isLocked(spec)) values.set(name, value);
    }
  }
  const gates = new FeatureGates<Name>(known, values);
  for (const [name, spec] of Object.entries(known)) {
    if (!gates.enabled(name as Name)) continue;
    for (const required of spec.requires ?? []) {
      if (!gates.enabled(required as Name)) {
        throw new FlagError(
          flagName,
          undefined,
          `${name} feature requires ${required} feature to be enabled`,
        );
      }
    }
  }
  return { gates, warnings };
}
