// Runtime cost tracking on cel-js: every node of a checked AST gets a wrapper that charges what cel-go's cost
// tracker charges for the same step (identifiers and selections 1, constants 0, list literals 10, calls by
// overload, comprehensions as cel-go expands the macros), and stops the evaluation past the budget.
import type { ASTNode } from '@marcbachmann/cel-js';
import { callCost, costLimitExceededMessage, operatorCost } from './cost.js';
import { sizeOf } from './values.js';

/** Receivers that are namespaces (optional.of, strings.quote, ...): no identifier cost, as in cel-go. */
export const namespaces = new Set(['optional', 'strings', 'sets', 'format', 'ip', 'cel']);

export class CostLimitExceeded extends Error {
  constructor() {
    super(costLimitExceededMessage);
  }
}

interface Tracker {
  cost: number;
  limit: number;
  exceeded: boolean;
}

let tracker: Tracker | undefined;

/** Charges what a library's own loop costs (the two-variable comprehensions). */
export function chargeCost(n: number): void {
  charge(n);
}

function charge(n: number): void {
  const t = tracker;
  if (!t) return;
  t.cost += n;
  if (t.cost > t.limit) {
    t.exceeded = true;
    throw new CostLimitExceeded();
  }
}

/** Runs `fn` with a fresh tracker; returns its cost and whether the limit stopped it. */
export function tracked<T>(
  limit: number,
  fn: () => T,
): { value?: T; error?: unknown; cost: number; exceeded: boolean } {
  const saved = tracker;
  const t: Tracker = { cost: 0, limit, exceeded: false };
  tracker = t;
  try {
    const value = fn();
    return { value, cost: t.cost, exceeded: t.exceeded };
  } catch (error) {
    return { error, cost: t.cost, exceeded: t.exceeded };
  } finally {
    tracker = saved;
  }
}

type Evaluate = (ev: unknown, ast: unknown, ctx: unknown) => unknown;
interface Meta {
  evaluate: Evaluate;
  alternate?: ASTNode;
  macro?: Record<string, unknown> & { evaluate: Evaluate; macroHasProps?: unknown[] };
}
interface Rec {
  last: unknown;
  steps: number;
}
interface Node {
  op: string;
  args: unknown;
  meta: Meta;
  evaluate: Evaluate;
}

const isNode = (x: unknown): x is Node =>
  x !== null &&
  typeof x === 'object' &&
  'op' in x &&
  'meta' in x &&
  typeof (x as Node).evaluate === 'function';

function childNodes(x: unknown, out: Node[], depth = 0): Node[] {
  if (isNode(x)) out.push(x);
  else if (Array.isArray(x)) for (const y of x) childNodes(y, out, depth);
  else if (x !== null && typeof x === 'object' && depth < 1) {
    for (const y of Object.values(x)) childNodes(y, out, depth + 1);
  }
  return out;
}

const conversions = new Set([
  'bool',
  'bytes',
  'double',
  'duration',
  'dyn',
  'int',
  'string',
  'timestamp',
  'type',
  'uint',
]);
const primitive = (v: unknown) =>
  ['boolean', 'bigint', 'number', 'string'].includes(typeof v) ||
  v instanceof Uint8Array ||
  (v !== null && typeof v === 'object' && v.constructor?.name === 'UnsignedInt');

/**
 * What cel-go's optimizer (kube runs programs with OptOptimize) turns into a constant, which then costs
 * nothing: literals, lists and maps of constants, and type conversions of a constant.
 */
function isConstant(n: Node): boolean {
  if (n.meta.alternate || n.meta.macro) return false;
  const args = n.args as unknown[];
  switch (n.op) {
    case 'value':
      return true;
    case 'list':
      return (args as Node[]).every(isConstant);
    case 'map':
      return (args as [Node, Node][]).every(([k, v]) => isConstant(k) && isConstant(v));
    case 'call':
      return (
        conversions.has(args[0] as string) &&
        (args[1] as Node[]).length === 1 &&
        isConstant((args[1] as Node[])[0])
      );
    default:
      return false;
  }
}

/** `x in [constants]`: cel-go's optimizer makes it a set lookup, which the cost tracker does not charge. */
function isSetMembership(n: Node): boolean {
  if (n.op !== 'in') return false;
  const list = (n.args as Node[])[1];
  return (
    list.op === 'list' &&
    isConstant(list) &&
    (list.args as Node[]).every((e) => e.op === 'value' && primitive(e.args))
  );
}

/**
 * Instruments a checked AST in place (once). `optimize` follows kube's programs (cel-go's OptOptimize: constant
 * folding); without it the costs are those of an unoptimized cel-go program, as kube's library tests count.
 */
export function instrument(root: ASTNode, optimize = true): void {
  const recs = new Map<Node, Rec>();
  const rec = (n: Node) => {
    let r = recs.get(n);
    if (!r) recs.set(n, (r = { last: undefined, steps: 0 }));
    return r;
  };
  const visit = (n: Node, macroName?: string, isNamespace = false, isStep?: Rec): void => {
    if (recs.has(n) && !isStep) return;
    const r = rec(n);
    const meta = n.meta;
    const args = n.args as unknown;
    let extra: (value: unknown) => number = () => 0;
    const last = (c: unknown) => rec(c as Node).last;
    if (optimize && isConstant(n)) return wrap(n, r, extra);
    if (optimize && isSetMembership(n)) {
      visit((args as Node[])[0]);
      return wrap(n, r, extra);
    }

    if (meta.alternate) {
      visit(meta.alternate as unknown as Node, n.op === 'rcall' ? (n.args as [string])[0] : undefined);
    } else if (meta.macro) {
      const macro = meta.macro;
      for (const c of childNodes(macro, [])) visit(c);
      const name = (n.args as [string])[0];
      if (name === 'has') extra = () => Math.max(0, (macro.macroHasProps?.length ?? 2) - 2);
      else if (name === 'bind') extra = () => 10;
      else if (!('kind' in macro)) extra = () => 1;
    } else {
      switch (n.op) {
        case 'value':
          break;
        case 'id':
          if (!isNamespace) extra = () => 1;
          break;
        case 'accuValue':
          extra = () => 1;
          break;
        case 'accuInc':
          extra = () => 2;
          break;
        case 'accuPush':
          visit(args as Node);
          extra = () => 12;
          break;
        case 'list':
          for (const c of childNodes(args, [])) visit(c);
          extra = () => 10;
          break;
        case 'map':
          for (const c of childNodes(args, [])) visit(c);
          extra = () => 30;
          break;
        case 'comprehension': {
          const a = args as { iterable: Node; init: Node; step: Node };
          visit(a.iterable);
          visit(a.init);
          const stepRec = rec(a.step);
          visit(a.step, undefined, false, stepRec);
          const kind = macroName;
          const started = () => (stepRec.steps = 0);
          extra = () => {
            const steps = stepRec.steps;
            const n2 = sizeOf(last(a.iterable));
            const conds = steps + (steps < n2 ? 1 : 0);
            if (kind === 'all') return steps + conds * 2 + 1;
            if (kind === 'exists') return steps + conds * 3 + 1;
            if (kind === 'exists_one') return 2;
            return 1;
          };
          wrap(n, r, extra, started);
          return;
        }
        case 'call':
        case 'rcall': {
          const [name, a1, a2] = args as [string, Node | Node[], Node[]];
          const receiver = n.op === 'rcall' ? (a1 as Node) : undefined;
          const params = (n.op === 'rcall' ? a2 : a1) as Node[];
          const ns =
            receiver?.op === 'id' && namespaces.has(receiver.args as string)
              ? (receiver.args as string)
              : undefined;
          if (receiver) visit(receiver, undefined, ns !== undefined);
          for (const p of params) visit(p);
          const fn = ns ? `${ns}.${name}` : name;
          extra = (v) => callCost(fn, [...(receiver && !ns ? [last(receiver)] : []), ...params.map(last)], v);
          break;
        }
        case '!_':
        case '-_':
          visit(args as Node);
          extra = () => 1;
          break;
        case '.':
        case '.?':
          visit((args as [Node])[0]);
          extra = () => 1;
          break;
        case '[]':
        case '[?]':
          for (const c of childNodes(args, [])) visit(c);
          extra = () => 1;
          break;
        case '?:':
        case '&&':
        case '||':
          for (const c of childNodes(args, [])) visit(c);
          break;
        default: {
          const [l, rr] = args as [Node, Node];
          visit(l);
          visit(rr);
          const op = n.op;
          extra = () => operatorCost(op, last(l), last(rr));
        }
      }
    }
    wrap(n, r, extra, undefined, isStep);
  };
  visit(root as unknown as Node);
}

function target(n: Node): Evaluate {
  const meta = n.meta;
  if (meta.alternate) {
    const alt = meta.alternate as unknown as Node;
    return (ev, _ast, ctx) => alt.evaluate(ev, alt, ctx);
  }
  if (meta.macro) {
    const macro = meta.macro;
    return (ev, _ast, ctx) => macro.evaluate(ev, macro, ctx);
  }
  return meta.evaluate;
}

function wrap(n: Node, r: Rec, extra: (v: unknown) => number, start?: () => void, counting?: Rec): void {
  let inner: Evaluate | undefined;
  n.evaluate = (ev, ast, ctx) => {
    if (tracker?.exceeded) throw new CostLimitExceeded();
    inner ??= target(n);
    start?.();
    if (counting) counting.steps++;
    const v = inner(ev, ast, ctx);
    r.last = v;
    if (tracker) charge(extra(v));
    return v;
  };
}
