// kube's estimated worst-case cost of a checked expression (cel-go's checker cost with kube's library estimator):
// sizes come from the schemas declared for the variables (maxLength, maxItems, maxProperties), and where a
// schema sets no limit, from the largest request kube accepts, as kube's CRD validation estimates them.
import type { ASTNode } from '@marcbachmann/cel-js';
import { costFactors, maxRequestSizeBytes, nominal } from './cost.js';
import { namespaces } from './runtime-cost.js';

/** The part of an OpenAPI v3 schema that bounds sizes. */
export interface SizeSchema {
  type?: string;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  maxProperties?: number;
  /** kube's DeclType bound (bytes of a string, entries of a list or map, 0 for numbers), used as given */
  maxElements?: number;
  items?: SizeSchema;
  properties?: Record<string, SizeSchema>;
  additionalProperties?: SizeSchema | boolean;
}

export interface CostEstimate {
  min: number;
  max: number;
}

/**
 * The keys of a map with a schema: kube's DeclType gives them its plain string type, whose size bound is 0, so
 * its estimate charges nothing for their length.
 */
const mapKey: SizeSchema = { type: 'string', maxLength: 0 };

/** cel-go's "unknown size": the largest uint64. */
const unbounded = 2 ** 64 - 1;
const sat = (x: number) => Math.min(x, unbounded);
const est = (min: number, max = min): CostEstimate => ({ min: sat(min), max: sat(max) });
const add = (a: CostEstimate, b: CostEstimate) => est(a.min + b.min, a.max + b.max);
const mul = (a: CostEstimate, b: CostEstimate) => est(a.min * b.min, a.max * b.max);
const factor = (a: CostEstimate, f: number) => est(Math.ceil(a.min * f), Math.ceil(a.max * f));
const zero = est(0);
const one = est(1);

/** kube's smallest JSON encoding of a value of the schema, which bounds how many fit in a request. */
function minSizeJSON(s: SizeSchema | undefined): number {
  switch (s?.type) {
    case 'boolean':
      return 4;
    case 'number':
    case 'integer':
      return 1;
    case 'string':
      return (s.minLength ?? 0) + 2;
    default:
      return 2;
  }
}

function schemaSize(s: SizeSchema): CostEstimate | undefined {
  if (s.maxElements !== undefined) return est(0, s.maxElements);
  switch (s.type) {
    case 'string':
      return est(0, s.maxLength ?? maxRequestSizeBytes - 2);
    case 'array':
      return est(0, s.maxItems ?? Math.floor((maxRequestSizeBytes - 2) / (minSizeJSON(s.items) + 1)));
    case 'object': {
      const values = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
      return est(0, s.maxProperties ?? Math.floor((maxRequestSizeBytes - 2) / (minSizeJSON(values) + 6)));
    }
    case 'integer':
    case 'number':
    case 'boolean':
      return one;
    default:
      return undefined;
  }
}

interface Info {
  cost: CostEstimate;
  size?: CostEstimate;
  schema?: SizeSchema;
}

interface Node {
  op: string;
  args: unknown;
  meta: { alternate?: unknown; macro?: unknown };
  checkedType?: { name: string };
}

const scalar =
  /^(int|uint|double|bool|null_type|type|google\.protobuf\.(Duration|Timestamp)|kubernetes\..*|net\..*)$/;

function sizeOfInfo(info: Info, node: Node): CostEstimate {
  if (info.size) return info.size;
  const fromSchema = info.schema && schemaSize(info.schema);
  if (fromSchema) return fromSchema;
  if (scalar.test(node.checkedType?.name ?? '')) return one;
  return est(0, unbounded);
}

type Scope = ReadonlyMap<string, Info>;

const elementType = (n: Node) => /^list<(.*)>$/.exec(n.checkedType?.name ?? '')?.[1] ?? '';

/** kube's call estimates (then cel-go's): cost and result size, given the target and argument estimates. */
function callEstimate(
  fn: string,
  target: { node: Node; info: Info } | undefined,
  args: { node: Node; info: Info }[],
): { cost: CostEstimate; size?: CostEstimate } {
  const size = (x: { node: Node; info: Info }) => sizeOfInfo(x.info, x.node);
  if (nominal.has(fn)) return { cost: one };
  const t = target && size(target);
  const a0 = args[0] && size(args[0]);
  const str = (s: CostEstimate) => factor(s, costFactors.stringTraversal);
  switch (fn) {
    case 'check':
      return { cost: est(costFactors.authorizationCheck) };
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf': {
      if (!target || !t) break;
      if (!target.node.checkedType?.name.startsWith('list')) return { cost: str(t) };
      let el = one;
      const et = elementType(target.node);
      if (et === 'string' || et === 'bytes') {
        const items = target.info.schema?.items;
        const elSize = (items && schemaSize(items)) ?? est(0, unbounded);
        el = add(el, str(elSize));
      }
      return { cost: mul(t, el) };
    }
    case 'url':
      return { cost: str(a0 ?? zero) };
    case 'sets.contains':
    case 'sets.intersects':
    case 'sets.equivalent': {
      // every pair of elements compared (equivalent: both ways), on top of the call
      const b = args[1] && size(args[1]);
      if (!a0 || !b) break;
      return { cost: add(one, factor(mul(a0, b), fn === 'sets.equivalent' ? 2 : 1)) };
    }
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return t ? { cost: str(t), size: t } : { cost: one };
    case 'replace':
      if (t) return { cost: factor(t, 2 * costFactors.stringTraversal), size: est(0, unbounded) };
      break;
    case 'split':
      if (t) return { cost: factor(t, 2 * costFactors.stringTraversal), size: est(0, t.max) };
      break;
    case 'join':
      if (t) {
        const et = target!.info.schema?.items;
        let sz = mul(t, (et && schemaSize(et)) ?? est(0, unbounded));
        if (a0) sz = add(sz, mul(a0, est(Math.max(0, t.min - 1), Math.max(0, t.max - 1))));
        return { cost: str(sz), size: sz };
      }
      break;
    case 'find':
    case 'findAll':
    case 'matches':
      if (t && a0) {
        const strCost = str(add(t, one));
        return { cost: mul(strCost, factor(a0, costFactors.regexStringLength)), size: est(0, t.max) };
      }
      break;
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
      return { cost: str(a0 ?? one) };
    case 'string':
    case 'bytes': {
      // only converting between strings and bytes walks the value; other conversions cost 1
      const from = args[0]?.node.checkedType?.name;
      return { cost: from === (fn === 'string' ? 'bytes' : 'string') ? str(a0 ?? one) : one };
    }
    case 'ip':
      return target ? { cost: one } : { cost: str(a0 ?? one) };
    case 'ip.isCanonical':
      return { cost: factor(a0 ?? one, 2 * costFactors.stringTraversal) };
    case 'containsIP':
    case 'containsCIDR': {
      const ipBytes = est(4, 16);
      let cost = str(add(ipBytes, ipBytes));
      if (fn === 'containsCIDR') cost = add(add(cost, str(ipBytes)), one);
      if (args[0]?.node.checkedType?.name === 'string') cost = add(cost, str(a0));
      return { cost };
    }
    case 'startsWith':
    case 'endsWith':
      // the estimate (not the run) of cel-go kube v1.32 ships scans the prefix or suffix only
      if (a0) return { cost: str(a0) };
      break;
    case 'contains':
      if (t && a0 && target!.node.checkedType?.name === 'string') return { cost: mul(str(t), str(a0)) };
      break;
  }
  return { cost: one };
}

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
