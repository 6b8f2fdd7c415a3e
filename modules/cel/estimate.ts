// kube's estimated worst-case cost of a checked expression (cel-go's checker cost with kube's library estimator):
// sizes come from the schemas declared for the variables (maxLength, maxItems, maxProperties), and where a
// schema sets no limit, from the largest request kube accepts, as kube's CRD validation estimates them.
import type { ASTNode } from '@marcbachmann/cel-js';
import { costFactors } from './cost.js';
import { callEstimate } from './estimate-calls.js';
import {
  add,
  est,
  factor,
  mapKey,
  mul,
  one,
  sizeOfInfo,
  zero,
  type CostEstimate,
  type Info,
  type Node,
  type Scope,
  type SizeSchema,
} from './estimate-sizes.js';
import { namespaces } from './runtime-cost.js';

export type { CostEstimate, SizeSchema } from './estimate-sizes.js';

/** The estimated cost of a checked expression, with the schemas bounding its variables. */
export function estimateCost(ast: ASTNode, schemas: Record<string, SizeSchema> = {}): CostEstimate {
  const root = new Map<string, Info>(
    Object.entries(schemas).map(([k, schema]) => [k, { cost: one, schema }]),
  );
  return visit(ast as unknown as Node, root).cost;
}

function visit(n: Node, scope: Scope): Info {
  const args = n.args as unknown[];
  // an identifier that names a constant (a type such as `string`) is its value
  if (n.op === 'id' && n.meta.alternate) return visit(n.meta.alternate as Node, scope);
  if (n.meta.alternate || n.meta.macro) return macro(n, scope);
  switch (n.op) {
    case 'value': {
      const v = n.args as unknown;
      const size = typeof v === 'string' ? Array.from(v).length : v instanceof Uint8Array ? v.length : 1;
      return { cost: zero, size: est(size) };
    }
    case 'id': {
      const name = n.args as unknown as string;
      const bound = scope.get(name);
      return { cost: bound?.cost ?? one, schema: bound?.schema, size: bound?.size };
    }
    case '.':
    case '.?': {
      const operand = visit(args[0] as Node, scope);
      const field = args[1] as string;
      const s = operand.schema;
      const schema =
        s?.properties?.[field] ??
        (typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined);
      return { cost: add(operand.cost, one), schema };
    }
    case '[]':
    case '[?]': {
      const l = visit(args[0] as Node, scope);
      const r = visit(args[1] as Node, scope);
      const s = l.schema;
      const schema =
        s?.items ?? (typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined);
      return { cost: add(add(l.cost, r.cost), one), schema };
    }
    case 'list':
    case 'map': {
      const children = (n.op === 'list' ? args : args.flat()) as Node[];
      const cost = children.reduce(
        (c, x) => add(c, visit(x, scope).cost),
        est(n.op === 'list' ? costFactors.listCreate : costFactors.mapCreate),
      );
      return { cost, size: est(args.length) };
    }
    case '!_':
    case '-_':
      return { cost: add(visit(n.args as unknown as Node, scope).cost, one) };
    case '&&':
    case '||': {
      const l = visit(args[0] as Node, scope);
      const r = visit(args[1] as Node, scope);
      return { cost: est(l.cost.min, l.cost.max + r.cost.max) };
    }
    case '?:': {
      const [c, t, f] = (args as Node[]).map((x) => visit(x, scope));
      return { cost: add(c.cost, est(Math.min(t.cost.min, f.cost.min), Math.max(t.cost.max, f.cost.max))) };
    }
    case 'call':
    case 'rcall': {
      const name = args[0] as string;
      const receiver = n.op === 'rcall' ? (args[1] as Node) : undefined;
      const params = (n.op === 'rcall' ? args[2] : args[1]) as Node[];
      const ns =
        receiver?.op === 'id' &&
        namespaces.has(receiver.args as unknown as string) &&
        !scope.has(receiver.args as unknown as string)
          ? (receiver.args as unknown as string)
          : undefined;
      const target = receiver && !ns ? { node: receiver, info: visit(receiver, scope) } : undefined;
      const argInfos = params.map((p) => ({ node: p, info: visit(p, scope) }));
      const call = callEstimate(ns ? `${ns}.${name}` : name, target, argInfos);
      let cost = call.cost;
      if (target) cost = add(cost, target.info.cost);
      for (const a of argInfos) cost = add(cost, a.info.cost);
      return { cost, size: call.size };
    }
    default: {
      const [ln, rn] = args as [Node, Node];
      const l = visit(ln, scope);
      const r = visit(rn, scope);
      const ls = sizeOfInfo(l, ln);
      const rs = sizeOfInfo(r, rn);
      let op = one;
      let size: CostEstimate | undefined;
      const ordered = ['<', '<=', '>', '>='].includes(n.op);
      const text = (t?: string) => t === 'string' || t === 'bytes';
      if (ordered && !text(ln.checkedType?.name) && !text(rn.checkedType?.name)) {
        // ordering numbers, durations, timestamps: a unit cost, whatever the sizes
      } else if (ordered || n.op === '==' || n.op === '!=') {
        const smallest = Math.min(ls.max, rs.max);
        op = est(smallest > 0 ? 1 : 0, Math.ceil(smallest * costFactors.stringTraversal));
      } else if (n.op === '+') {
        const t = ln.checkedType?.name;
        size = add(ls, rs);
        if (t === 'string' || t === 'bytes') op = factor(size, costFactors.stringTraversal);
      } else if (n.op === 'in' && rn.checkedType?.name.startsWith('list')) op = rs;
      return { cost: add(add(l.cost, r.cost), op), size };
    }
  }
}

function macro(n: Node, scope: Scope): Info {
  const args = n.args as unknown[];
  const name = args[0] as string;
  if (name === 'has') {
    // what reaching the tested field's holder costs (`has(a.b.c)`: a, .b); testing the field is free
    const arg = (args[1] as Node[])[0];
    return { cost: arg.op === '.' || arg.op === '.?' ? visit((arg.args as Node[])[0], scope).cost : zero };
  }
  const receiver = n.op === 'rcall' ? (args[1] as Node) : undefined;
  const params = (n.op === 'rcall' ? args[2] : args[1]) as Node[];
  if (name === 'bind' && params.length === 3) {
    const val = visit(params[1], scope);
    const inner = new Map(scope).set(params[0].args as unknown as string, { ...val, cost: one });
    return { cost: add(add(est(costFactors.listCreate), val.cost), visit(params[2], inner).cost) };
  }
  const twoVar = n.meta.macro as { kind?: string } | undefined;
  if (receiver && twoVar?.kind) return twoVarMacro(twoVar.kind, receiver, params, scope);
  if (!receiver || !n.meta.alternate) {
    // the optional macros (or, orValue): a call over its operands
    let cost = one;
    if (receiver) cost = add(cost, visit(receiver, scope).cost);
    for (const p of params) cost = add(cost, visit(p, scope).cost);
    return { cost };
  }
  const range = visit(receiver, scope);
  const count = sizeOfInfo(range, receiver);
  const element: Info = {
    cost: one,
    schema: range.schema?.items ?? (range.schema?.type === 'object' ? mapKey : undefined),
  };
  const inner = new Map(scope).set(params[0].args as unknown as string, element);
  const body = params.slice(1).map((p) => visit(p, inner).cost);
  let init = zero;
  let loop: CostEstimate;
  let result = one;
  let size: CostEstimate | undefined;
  switch (name) {
    case 'all':
    case 'exists': {
      const cond = est(name === 'all' ? 2 : 3);
      loop = add(cond, est(1, 1 + body[0].max));
      break;
    }
    case 'exists_one':
      loop = add(body[0], est(1, 2));
      result = est(2);
      break;
    case 'map':
      init = est(costFactors.listCreate);
      size = count;
      loop = body.length === 1 ? add(est(11), body[0]) : add(body[0], est(1, 11 + body[1].max));
      break;
    default:
      init = est(costFactors.listCreate);
      size = count;
      loop = add(body[0], est(1, 13));
  }
  return { cost: add(add(add(range.cost, init), mul(count, loop)), result), size };
}

/** cel-go's two-variable comprehensions: (index or key, value) bound, loop costs as their expansions. */
function twoVarMacro(kind: string, receiver: Node, params: Node[], scope: Scope): Info {
  const range = visit(receiver, scope);
  const count = sizeOfInfo(range, receiver);
  const s = range.schema;
  const isList = receiver.checkedType?.name.startsWith('list') ?? false;
  const key: Info = isList ? { cost: one, size: one } : { cost: one, schema: mapKey };
  const values =
    s?.items ?? (typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined);
  const inner = new Map(scope)
    .set(params[0].args as unknown as string, key)
    .set(params[1].args as unknown as string, { cost: one, schema: values });
  const body = params.slice(2).map((p) => visit(p, inner).cost);
  const [filter, expr] = body.length === 2 ? body : [undefined, body[0]];
  let init = zero;
  let loop: CostEstimate;
  let result = one;
  let size: CostEstimate | undefined;
  switch (kind) {
    case 'all':
    case 'exists':
      loop = add(est(kind === 'all' ? 2 : 3), est(1, 1 + expr.max));
      break;
    case 'existsOne':
      loop = add(expr, est(1, 2));
      result = est(2);
      break;
    default: {
      init = est(kind === 'transformList' ? costFactors.listCreate : costFactors.mapCreate);
      const step = add(expr, est(kind === 'transformList' ? 12 : kind === 'transformMap' ? 3 : 2));
      loop = filter ? add(filter, est(1, step.max)) : step;
      size = count;
    }
  }
  return { cost: add(add(add(range.cost, init), mul(count, loop)), result), size };
}
