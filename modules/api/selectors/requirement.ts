/** labels.NewRequirement: validation of one requirement with kube's messages (no field path). */
import { ApiError } from '../status.js';
import type { CompiledRequirement, LabelOperator, LabelRequirement } from './label-selector.js';
import { parseInt64 } from './label-selector.js';
import { isQualifiedName, isValidLabelValue } from './validation.js';
import { goQuote } from './quote.js';

/** Go's %#v of a []string, as field.Invalid prints slice values. */
function goStringSlice(values: readonly string[] | null): string {
  if (values === null) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

export function invalid(field: string, shown: string, detail: string): string {
  return `${field}: Invalid value: ${shown}: ${detail}`;
}

/** field.ErrorList.ToAggregate().Error(): one message alone, several de-duplicated inside brackets. */
export function aggregate(msgs: string[]): string {
  if (msgs.length === 1) return msgs[0];
  const seen = [...new Set(msgs)];
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}

export function keyError(key: string, field: string): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length === 0 ? undefined : invalid(field, goQuote(key), errs.join('; '));
}

/**
 * Builds a requirement the way labels.NewRequirement does with no field path; throws the aggregate
 * message. `raw` is what the caller supplied (null for a Go nil slice), used only in messages.
 */
export function newRequirement(
  key: string,
  operator: LabelOperator,
  values: string[],
  raw: string[] | null = values,
): CompiledRequirement {
  const errs: string[] = [];
  const ke = keyError(key, 'key');
  if (ke) errs.push(ke);
  let bound: bigint | undefined;
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0)
        errs.push(
          invalid('values', goStringSlice(raw), "for 'in', 'notin' operators, values set can't be empty"),
        );
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1)
        errs.push(
          invalid('values', goStringSlice(raw), 'exact-match compatibility requires one single value'),
        );
      break;
    case 'exists':
    case '!':
      if (values.length !== 0)
        errs.push(
          invalid('values', goStringSlice(raw), 'values set must be empty for exists and does not exist'),
        );
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1)
        errs.push(
          invalid('values', goStringSlice(raw), "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      for (let i = 0; i < values.length; i++) {
        bound = parseInt64(values[i]);
        if (bound === undefined)
          errs.push(
            invalid(
              `values[${i}]`,
              goQuote(values[i]),
              "for 'Gt', 'Lt' operators, the value must be an integer",
            ),
          );
      }
      break;
  }
  for (let i = 0; i < values.length; i++) {
    const ve = isValidLabelValue(values[i]);
    if (ve.length > 0) errs.push(invalid(`values[${i}][${key}]`, goQuote(values[i]), ve.join('; ')));
  }
  if (errs.length > 0) throw ApiError.badRequest(aggregate(errs));
  return bound === undefined ? { key, operator, values } : { key, operator, values, bound };
}

export function byKey(a: LabelRequirement, b: LabelRequirement): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Values as kube's string set returns them: unique and sorted. */
export function sortedUnique(values: string[]): string[] {
  if (values.length < 2) return values;
  values.sort();
  let w = 1;
  for (let r = 1; r < values.length; r++) {
    if (values[r] !== values[w - 1]) values[w++] = values[r];
  }
  values.length = w;
  return values;
}
