// What cel-go's optional types add beyond cel-js's: optional.ofNonZeroValue, and the optMap / optFlatMap
// macros (cel-js has optional.of/none, hasValue, value, or, orValue, `.?` and `[?]`).
import { Optional, type ASTNode, type Environment } from '@marcbachmann/cel-js';
import { celEquals, isDuration, isPlainMap } from '../values.js';

/* cel-js's macro hooks are untyped */
type Checker = any;
type Evaluator = any;
type Context = any;

function isZero(v: unknown): boolean {
  if (v === null || v === false || v === 0 || v === 0n || v === '') return true;
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  if (isPlainMap(v)) return Object.keys(v).length === 0;
  if (isDuration(v)) return v.seconds === 0n && v.nanos === 0;
  // the zero timestamp is Go's zero time, 0001-01-01T00:00:00Z (not the Unix epoch)
  if (v instanceof Date) return v.getTime() === -62135596800000;
  if (v !== null && typeof v === 'object' && v.constructor?.name === 'UnsignedInt') return v.valueOf() === 0n;
  return false;
}

interface OptMacro {
  flat: boolean;
  receiver: ASTNode;
  name: string;
  expr: ASTNode;
  inner?: Context;
  typeCheck(checker: Checker, m: OptMacro, ctx: Context): unknown;
  evaluate(ev: Evaluator, m: OptMacro, ctx: Context): unknown;
}

function typeCheck(checker: Checker, m: OptMacro, ctx: Context): unknown {
  const t = checker.check(m.receiver, ctx);
  const valueType = t.kind === 'optional' ? t.valueType : checker.getType('dyn');
  m.inner = ctx.forkWithVariable(m.name, valueType);
  const result = checker.check(m.expr, m.inner);
  return m.flat ? result : checker.registry.getOptionalType(result);
}

function evaluate(ev: Evaluator, m: OptMacro, ctx: Context): unknown {
  const opt = ev.run(m.receiver, ctx) as Optional<unknown>;
  if (!opt.hasValue()) return Optional.none();
  const value = ev.run(m.expr, m.inner.reuse(ctx).setIterValue(opt.value(), ev));
  return m.flat ? value : Optional.of(value);
}

export function registerOptional(env: Environment): void {
  // cel-js has no equality of optionals: equal when both are empty or both hold equal values
  env.registerOperator('optional<A> == optional<A>', (a: unknown, b: unknown) => celEquals(a, b));
  env.registerFunction('OptionalNamespace.ofNonZeroValue(A): optional<A>', (_: unknown, v: unknown) =>
    isZero(v) ? Optional.none() : Optional.of(v),
  );
  for (const [fn, flat] of [
    ['optMap', false],
    ['optFlatMap', true],
  ] as const) {
    env.registerFunction(`optional.${fn}(ast, ast): optional<dyn>`, (({
      args,
      receiver,
    }: {
      args: ASTNode[];
      receiver: ASTNode;
    }) => {
      if (args[0].op !== 'id') throw new Error(`${fn}() variable name must be a simple identifier`);
      return { flat, receiver, name: args[0].args as string, expr: args[1], typeCheck, evaluate };
    }) as never);
  }
}
