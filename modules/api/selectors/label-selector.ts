/** A parsed label selector: an AND of requirements, matched against an object's labels. */

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** sorted and de-duplicated, as kube keeps them; empty for exists / ! */
  readonly values: readonly string[];
}

export interface CompiledRequirement extends LabelRequirement {
  /** the integer for gt / lt */
  readonly bound?: bigint;
}

function labelValue(labels: Record<string, string> | undefined, key: string): string | undefined {
  if (labels === undefined || labels === null) return undefined;
  const v = labels[key];
  // typeof guards against inherited members such as labels['constructor']
  return typeof v === 'string' ? v : undefined;
}

const int64Text = /^[+-]?[0-9]+$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(s, 10, 64); undefined when it would fail. */
export function parseInt64(s: string): bigint | undefined {
  if (!int64Text.test(s)) return undefined;
  const n = BigInt(s);
  return n < int64Min || n > int64Max ? undefined : n;
}

function requirementMatches(r: CompiledRequirement, labels: Record<string, string> | undefined): boolean {
  const v = labelValue(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return v !== undefined && r.values.includes(v);
    case 'notin':
    case '!=':
      return v === undefined || !r.values.includes(v);
    case 'exists':
      return v !== undefined;
    case '!':
      return v === undefined;
    case 'gt':
    case 'lt': {
      if (v === undefined || r.bound === undefined) return false;
      const n = parseInt64(v);
      if (n === undefined) return false;
      return r.operator === 'gt' ? n > r.bound : n < r.bound;
    }
  }
}

function requirementString(r: LabelRequirement): string {
  switch (r.operator) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'in':
    case 'notin':
      // metav1 selectors keep their values in the given order; the text form is sorted regardless
      return `${r.key} ${r.operator} (${[...r.values].sort().join(',')})`;
    case 'gt':
      return `${r.key}>${r.values[0]}`;
    case 'lt':
      return `${r.key}<${r.values[0]}`;
    default:
      return `${r.key}${r.operator}${r.values[0]}`;
  }
}

export class LabelSelector {
  /** true when the selector does not restrict anything */
  readonly empty: boolean;

  constructor(
    readonly requirements: readonly LabelRequirement[],
    /** a selector that matches nothing (a nil metav1.LabelSelector) */
    private readonly nothing = false,
  ) {
    this.empty = !nothing && requirements.length === 0;
  }

  matches(labels: Record<string, string> | undefined): boolean {
    if (this.nothing) return false;
    const reqs = this.requirements as readonly CompiledRequirement[];
    for (let i = 0; i < reqs.length; i++) {
      if (!requirementMatches(reqs[i], labels)) return false;
    }
    return true;
  }

  /** The single value the selector demands for `key` (from `key=v`, `key==v` or `key in (v)`). */
  requiresExactMatch(key: string): string | undefined {
    for (const r of this.requirements) {
      if (r.key !== key) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) {
        return r.values[0];
      }
      return undefined;
    }
    return undefined;
  }

  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

export const everything = new LabelSelector([]);
export const nothing = new LabelSelector([], true);
