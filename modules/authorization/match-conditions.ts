/**
 * An authorization webhook's matchConditions (AuthorizationConfiguration): CEL expressions over `request`, the
 * SubjectAccessReview v1 spec the webhook would be sent. Any false skips the webhook; all true calls it; an
 * error with no false applies the failure policy (kube's CELMatcher). Compiled once per configuration.
 */
import { celEnvironment, type CelProgram } from '../cel/index.js';

/** The outcome of a request's conditions: whether the webhook is asked, or why that could not be decided. */
export type MatchOutcome = { matches: boolean } | { error: string };

export type Matcher = (request: Record<string, unknown>) => MatchOutcome;

const environment = celEnvironment({ variables: { request: 'map<string, dyn>' } });

/** Why an expression is no match condition (it does not compile, or does not give a bool); undefined if it is. */
export function checkMatchCondition(expression: string): string | undefined {
  const compiled = environment.compile(expression);
  if (!compiled.ok) return compiled.error;
  // `request` is a map of dyn here (kube's is typed): a dyn result is checked when evaluated
  if (compiled.program.type !== 'bool' && compiled.program.type !== 'dyn') return 'must evaluate to bool';
  return undefined;
}

/** The matcher of validated expressions (checkMatchCondition passed for each). */
export function compileMatchConditions(expressions: readonly string[]): Matcher | undefined {
  if (expressions.length === 0) return undefined;
  const programs: { expression: string; program: CelProgram }[] = expressions.map((expression) => {
    const compiled = environment.compile(expression);
    if (!compiled.ok) throw new Error(`match condition ${JSON.stringify(expression)}: ${compiled.error}`);
    return { expression, program: compiled.program };
  });
  return (request) => {
    const errors: string[] = [];
    for (const { expression, program } of programs) {
      const result = program.evaluate({ request });
      if (!result.ok) errors.push(`expression '${expression}' resulted in error: ${result.error}`);
      else if (result.value === false) return { matches: false };
      else if (result.value !== true)
        errors.push(`expression '${expression}' resulted in non-bool value: ${String(result.value)}`);
    }
    return errors.length > 0 ? { error: errors.join('\n') } : { matches: true };
  };
}
