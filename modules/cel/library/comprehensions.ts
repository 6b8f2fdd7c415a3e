// cel-go's two-variable comprehensions (kube since 1.32): all, exists, existsOne over (index, value) of a list or
// (key, value) of a map, and transformList, transformMap, transformMapEntry, each with an optional filter.
// The loop's own costs (condition, accumulator) are charged here, as cel-go's expansion of these macros costs.
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { chargeCost } from '../runtime-cost.js';
import { CelRuntimeError, isPlainMap } from '../values.js';

type Checker = any;
type Evaluator = any;
type Context = any;

export type TwoVarKind =
  'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

interface Macro {
  kind: TwoVarKind;
  receiver: ASTNode;
  keyVar: string;
  valueVar: string;
  filter?: ASTNode;
  expr: ASTNode;
  c1?: Context;
  c2?: Context;
  typeCheck(checker: Checker, macro: Macro, ctx: Context): unknown;
  evaluate(ev: Evaluator, macro: Macro, ctx: Context): unknown;
}

function identifier(node: ASTNode, kind: string): string {
  if (node.op !== 'id') throw new Error(`${kind}() variable name must be a simple identifier`);
  return node.args as string;
}

function typeCheck(checker: Checker, m: Macro, ctx: Context): unknown {
  const range = checker.check(m.receiver, ctx);
  const dyn = checker.getType('dyn');
  const keyType = range.kind === 'list' ? checker.getType('int') : range.kind === 'map' ? range.keyType : dyn;
  const valueType = range.kind === 'list' || range.kind === 'map' ? range.valueType : dyn;
  m.c1 = ctx.forkWithVariable(m.keyVar, keyType);
  m.c2 = m.c1.forkWithVariable(m.valueVar, valueType);
  if (m.filter) checker.check(m.filter, m.c2);
  const t = checker.check(m.expr, m.c2);
  switch (m.kind) {
    case 'transformList':
      return checker.registry.getListType(t);
    case 'transformMap':
      return checker.registry.getMapType(keyType, t);
    case 'transformMapEntry':
      return t;
    default:
      return checker.getType('bool');
  }
}

function entries(coll: unknown): [unknown, unknown][] {
  if (Array.isArray(coll)) return coll.map((v, i) => [BigInt(i), v]);
  if (coll instanceof Map) return [...coll.entries()];
  if (isPlainMap(coll)) return Object.entries(coll);
  throw new CelRuntimeError('cannot be range of a comprehension (must be list, map, or dynamic)');
}

function evaluate(ev: Evaluator, m: Macro, ctx: Context): unknown {
  const items = entries(ev.run(m.receiver, ctx));
  const c1 = m.c1.reuse(ctx);
  const c2 = m.c2.reuse(c1);
  const run = (node: ASTNode, k: unknown, v: unknown) => {
    c1.setIterValue(k, ev);
    c2.setIterValue(v, ev);
    return ev.run(node, c2);
  };
  switch (m.kind) {
    case 'all':
    case 'exists': {
      const stopOn = m.kind === 'exists';
      const condition = m.kind === 'all' ? 2 : 3;
      for (const [k, v] of items) {
        chargeCost(condition + 1);
        if (run(m.expr, k, v) === stopOn) {
          if (items.length > 0) chargeCost(1 + (k === items[items.length - 1][0] ? 0 : condition));
          return stopOn;
        }
      }
      chargeCost(1);
      return !stopOn;
    }
    case 'existsOne': {
      let n = 0;
      for (const [k, v] of items) {
        const hit = run(m.expr, k, v) === true;
        if (hit) n++;
        chargeCost(hit ? 2 : 1);
      }
      chargeCost(2);
      return n === 1;
    }
    default: {
      chargeCost(m.kind === 'transformList' ? 10 : 30);
      const step = m.kind === 'transformList' ? 12 : m.kind === 'transformMap' ? 3 : 2;
      const list: unknown[] = [];
      const map: Record<string, unknown> = {};
      for (const [k, v] of items) {
        if (m.filter && run(m.filter, k, v) !== true) {
          chargeCost(1);
          continue;
        }
        const value = run(m.expr, k, v);
        chargeCost(step);
        if (m.kind === 'transformList') list.push(value);
        else if (m.kind === 'transformMap') map[String(k)] = value;
        else {
          for (const [ek, ev2] of entries(value)) {
            if (Object.hasOwn(map, String(ek)))
              throw new CelRuntimeError(`insert failed: key ${String(ek)} already exists`);
            map[String(ek)] = ev2;
          }
        }
      }
      chargeCost(1);
      return m.kind === 'transformList' ? list : map;
    }
  }
}

export function registerTwoVarComprehensions(env: Environment): void {
  const forms: [TwoVarKind, string, number, string][] = [
    ['all', 'all', 3, 'bool'],
    ['exists', 'exists', 3, 'bool'],
    ['existsOne', 'existsOne', 3, 'bool'],
    ['transformList', 'transformList', 3, 'list<dyn>'],
    ['transformList', 'transformList', 4, 'list<dyn>'],
    ['transformMap', 'transformMap', 3, 'map<dyn, dyn>'],
    ['transformMap', 'transformMap', 4, 'map<dyn, dyn>'],
    ['transformMapEntry', 'transformMapEntry', 3, 'map<dyn, dyn>'],
    ['transformMapEntry', 'transformMapEntry', 4, 'map<dyn, dyn>'],
  ];
  for (const [kind, name, arity, type] of forms) {
    const params = new Array<string>(arity).fill('ast').join(', ');
    env.registerFunction(`list.${name}(${params}): ${type}`, (({
      args,
      receiver,
    }: {
      args: ASTNode[];
      receiver: ASTNode;
    }) => ({
      kind,
      receiver,
      keyVar: identifier(args[0], name),
      valueVar: identifier(args[1], name),
      filter: arity === 4 ? args[2] : undefined,
      expr: args[arity - 1],
      typeCheck,
      evaluate,
    })) as never);
  }
}
