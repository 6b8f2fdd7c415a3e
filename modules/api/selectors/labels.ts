/**
 * Label selectors with the grammar, ordering and error text of k8s.io/apimachinery/pkg/labels (v1.32):
 * `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, joined by commas.
 * Invalid input throws a 400 whose message is exactly what kube-apiserver answers.
 */
import { ApiError } from '../status.js';
import { everything, LabelSelector, nothing } from './label-selector.js';
import type { CompiledRequirement, LabelOperator, LabelRequirement } from './label-selector.js';
import { byKey, newRequirement } from './requirement.js';
import { goQuote } from './quote.js';

export { LabelSelector, everything, nothing, parseInt64 } from './label-selector.js';
export type { LabelOperator, LabelRequirement } from './label-selector.js';
export { parseLabelSelector } from './label-parser.js';

/** metav1.LabelSelector as it appears in objects (Deployment.spec.selector, ...). */
export interface MetaLabelSelector {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: { key: string; operator: string; values?: string[] | null }[] | null;
}

const metaOperators: Record<string, LabelOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * metav1.LabelSelectorAsSelector: null/undefined selects nothing, an empty selector selects everything.
 * Throws a 400 with kube's message when a key, value or operator is invalid.
 */
export function labelSelectorFromMeta(sel: MetaLabelSelector | null | undefined): LabelSelector {
  if (sel === null || sel === undefined) return nothing;
  const matchLabels = sel.matchLabels ?? {};
  const exprs = sel.matchExpressions ?? [];
  const reqs: CompiledRequirement[] = [];
  for (const key in matchLabels) reqs.push(newRequirement(key, '=', [matchLabels[key]]));
  for (const expr of exprs) {
    const op = Object.hasOwn(metaOperators, expr.operator) ? metaOperators[expr.operator] : undefined;
    if (op === undefined)
      throw ApiError.badRequest(`${goQuote(String(expr.operator))} is not a valid label selector operator`);
    const values = expr.values && expr.values.length > 0 ? [...expr.values] : [];
    reqs.push(newRequirement(expr.key, op, values, values.length > 0 ? values : null));
  }
  if (reqs.length === 0) return everything;
  return new LabelSelector(reqs.sort(byKey));
}

/** A selector requiring every given label (labels.SelectorFromSet); no validation, as in kube. */
export function labelSelectorFromSet(set: Record<string, string> | null | undefined): LabelSelector {
  if (!set) return everything;
  const reqs: LabelRequirement[] = [];
  for (const key in set) reqs.push({ key, operator: '=', values: [set[key]] });
  return reqs.length === 0 ? everything : new LabelSelector(reqs.sort(byKey));
}
