// One CEL environment builder with Kubernetes' v1.32 libraries: expressions compile once (parsed, type-checked
// against the declared variables, instrumented for kube's cost model) into programs cached per environment.
import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import { costErrorMessage, perCallLimit, staticEstimatedCostLimit } from './cost.js';
import { estimateCost, type CostEstimate, type SizeSchema } from './estimate.js';
import { registerAuthorizer } from './library/authorizer.js';
import { registerTwoVarComprehensions } from './library/comprehensions.js';
import { registerFormat } from './library/format.js';
import { registerIP } from './library/ip.js';
import { registerLists } from './library/lists.js';
import { registerOptional } from './library/optional.js';
import { registerQuantity } from './library/quantity.js';
import { registerRegex } from './library/regex.js';
import { registerSets } from './library/sets.js';
import { registerStrings } from './library/strings.js';
import { registerURL } from './library/url.js';
import { rewriteHas, undefinedFields } from './fields.js';
import { registerConversions } from './library/conversions.js';
import { applyOverrides } from './overrides.js';
import { applyUnstructured } from './unstructured.js';
import { celEquals } from './values.js';
import { CostLimitExceeded, instrument, tracked } from './runtime-cost.js';
import { celTypeName, literalProblems, type Problem } from './validate.js';

export interface CelEnvironmentOptions {
  /** declared variables and their CEL types, e.g. {self: 'map<string, dyn>', authorizer: 'kubernetes.authorization.Authorizer'} */
  variables: Record<string, string>;
  /** the runtime budget of one evaluation (kube's per-call limit by default) */
  costLimit?: number;
  /**
   * fold constants as kube's programs do (cel-go's OptOptimize: constant lists, maps and conversions cost
   * nothing at run time); false counts as kube's library tests do. Default true.
   */
  optimize?: boolean;
  /** size bounds of the variables (OpenAPI schemas with maxLength, maxItems, maxProperties) for the estimate */
  schemas?: Record<string, SizeSchema>;
  /**
   * object types (kube's DeclTypes of a schema: named, with typed fields) the variables may be declared with;
   * they type-check field selections (`undefined field 'x'`) and compare with `==`
   */
  types?: ObjectTypeDeclaration[];
  /**
   * the variables hold kube's unstructured values (custom resources): `==`, `!=`, `in` and `+` on lists and maps
   * follow kube's list types (sets and map lists compare ignoring order, `+` merges them), see unstructured.ts
   */
  unstructured?: boolean;
}

/** A named object type with its fields' CEL types, e.g. {name: 'selfType1.spec', fields: {replicas: 'int'}}. */
export interface ObjectTypeDeclaration {
  name: string;
  fields: Record<string, string>;
}

export type CelResult =
  { ok: true; value: unknown; cost: number } | { ok: false; error: string; cost: number };

export interface CelProgram {
  readonly expression: string;
  /** the checked result type (cel-js's name, e.g. bool, list<string>) */
  readonly type: string;
  readonly ast: ASTNode;
  evaluate(activation: Record<string, unknown>, costLimit?: number): CelResult;
  /** kube's estimated cost, worst case first: the max is what limits compare */
  estimatedCost(): CostEstimate;
  /** kube's refusal when the estimate exceeds `limit` (a rule's 10,000,000 by default), else undefined */
  estimatedCostError(limit?: number): string | undefined;
}

export type CelCompileResult = { ok: true; program: CelProgram } | { ok: false; error: string };

export interface CelEnvironment {
  compile(expression: string): CelCompileResult;
}

const libraries = [
  registerLists,
  registerRegex,
  registerURL,
  registerQuantity,
  registerIP,
  registerFormat,
  registerSets,
  registerStrings,
  registerAuthorizer,
  registerTwoVarComprehensions,
  registerOptional,
  registerConversions,
];

/** One problem as cel-go words it: `ERROR: <input>:line:col: message` and the source line with a caret. */
function problemText(expression: string, { message, at }: Problem): string {
  const before = expression.slice(0, at);
  const line = before.split('\n').length;
  const col = at - before.lastIndexOf('\n');
  const text = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col}: ${message}\n | ${text}\n | ${'.'.repeat(col - 1)}^`;
}

/** kube's wording of a compile failure, from cel-js's error or our literal checks. */
function compileError(expression: string, problems: Problem[]): string {
  return `compilation failed: ${problems.map((p) => problemText(expression, p)).join('\n')}`;
}

const operatorNames: Record<string, string> = {
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  in: '@in',
};

/** cel-js's wording of a compile problem, in cel-go's words where they are known. */
function celJsProblem(e: { message: string; range?: { start: number } }, expression: string): Problem {
  const first = e.message.split('\n')[0];
  const at = e.range?.start ?? 0;
  const operator = /^(?:no such overload|found no matching overload for): (\S+) (\S+) (\S+)$/.exec(first);
  if (operator) {
    const name = operatorNames[operator[2]] ?? operator[2];
    const types = `${celTypeName(operator[1])}, ${celTypeName(operator[3])}`;
    return { message: `found no matching overload for '${name}' applied to '(${types})'`, at };
  }
  // a field a declared object type lacks, reported at its '.' as cel-go does
  const field = /^No such key: (.*)$/.exec(first);
  if (field)
    return { message: `undefined field '${field[1]}'`, at: Math.max(0, expression.lastIndexOf('.', at)) };
  return {
    message: first.replace(/^Unknown variable: (.*)$/, "undeclared reference to '$1' (in container '')"),
    at,
  };
}

/** kube's wording of a runtime error: cel-js's first line, with cel-go's words where they differ. */
function runtimeError(e: unknown): string {
  const first = ((e as Error)?.message ?? String(e)).split('\n')[0];
  return (
    first
      .replace(
        /^No such key: index out of bounds, index (-?\d+) >= size (\d+)$/,
        "index '$1' out of range in list size '$2'",
      )
      .replace(/^No such key: /, 'no such key: ')
      // a dyn value (int-or-string) of a type the operator or function does not take: cel-go says only this
      .replace(/^(?:no such overload: .*|found no matching overload for .*)$/, 'no such overload')
      .replace(/^Unknown variable: (.*)$/, 'no such attribute(s): $1')
      .replace(/^integer overflow: .*$/, 'integer overflow')
      .replace(/^Optional value is not present$/, 'optional.none() dereference')
      .replace(/^string\.substring\(start, end\): (start|end) index out of range$/, 'index out of range')
  );
}

const environmentOptions = { enableOptionalTypes: true, homogeneousAggregateLiterals: false };
let base: Environment | undefined;

/** The libraries are registered once; each environment is a clone that only adds its types and variables. */
function libraryEnvironment(): Environment {
  if (!base) {
    base = new Environment(environmentOptions);
    for (const register of libraries) register(base);
  }
  return base.clone(environmentOptions);
}

export function celEnvironment(options: CelEnvironmentOptions): CelEnvironment {
  const env = libraryEnvironment();
  for (const t of options.types ?? []) {
    // a constructor of its own: values of these types are never built by cel-js (see unstructured.ts)
    env.registerType({ name: t.name, ctor: class {}, fields: t.fields });
    env.registerOperator(`${t.name} == ${t.name}`, (a: unknown, b: unknown) => celEquals(a, b));
  }
  for (const [name, type] of Object.entries(options.variables)) env.registerVariable(name, type);
  const defaultLimit = options.costLimit ?? perCallLimit;
  const fields = new Map((options.types ?? []).map((t) => [t.name, t.fields]));
  const cache = new Map<string, CelCompileResult>();

  const compile = (expression: string): CelCompileResult => {
    let parsed;
    try {
      parsed = env.parse(expression);
    } catch (e) {
      return { ok: false, error: compileError(expression, [celJsProblem(e as Error, expression)]) };
    }
    rewriteHas(parsed.ast);
    const checked = parsed.check();
    if (!checked.valid) {
      return { ok: false, error: compileError(expression, [celJsProblem(checked.error!, expression)]) };
    }
    const problems = literalProblems(parsed.ast);
    if (fields.size > 0) problems.push(...undefinedFields(parsed.ast, expression, fields));
    if (problems.length > 0) return { ok: false, error: compileError(expression, problems) };
    applyOverrides(parsed.ast);
    if (options.unstructured) applyUnstructured(parsed.ast);
    instrument(parsed.ast, options.optimize ?? true);
    const run = parsed;
    let estimate: CostEstimate | undefined;
    const program: CelProgram = {
      expression,
      type: checked.type!,
      ast: parsed.ast,
      evaluate(activation, costLimit = defaultLimit) {
        const r = tracked(costLimit, () => run(activation));
        if (r.exceeded || r.error instanceof CostLimitExceeded) {
          return { ok: false, error: new CostLimitExceeded().message, cost: r.cost };
        }
        if (r.error !== undefined) return { ok: false, error: runtimeError(r.error), cost: r.cost };
        if (r.value instanceof Promise)
          return { ok: false, error: 'asynchronous evaluation is not supported', cost: r.cost };
        return { ok: true, value: r.value, cost: r.cost };
      },
      estimatedCost() {
        return (estimate ??= estimateCost(parsed.ast, options.schemas));
      },
      estimatedCostError(limit = staticEstimatedCostLimit) {
        const { max } = program.estimatedCost();
        return max > limit ? costErrorMessage('estimated rule cost', max, limit) : undefined;
      },
    };
    return { ok: true, program };
  };

  return {
    compile(expression) {
      let result = cache.get(expression);
      if (!result) {
        result = compile(expression);
        if (cache.size >= 10_000) cache.delete(cache.keys().next().value!);
        cache.set(expression, result);
      }
      return result;
    },
  };
}
