// Field selection as cel-go checks and runs it, where cel-js differs. cel-js's has() takes only a selection chain
// that starts at a variable (`has(a.b.c)`); cel-go takes any selection (`has(self[0].matches)`,
// `has(oldSelf.value().x)`, which real CRDs use), so those get a has() of their own before the check. And on
// declared object types cel-js lets has() and `.?` name any field, and indexes them (`self.a['b']`); cel-go
// refuses an undefined field, and has no index on an object.
import { Optional, type ASTNode } from '@marcbachmann/cel-js';
import type { Problem } from './validate.js';

/* cel-js's macro hooks are untyped */
type Checker = any;
type Evaluator = any;
type Context = any;

interface Node {
  op: string;
  args: unknown;
  start: number;
  checkedType?: { name: string; kind?: string };
  meta: { alternate?: unknown; macro?: Record<string, unknown> };
  setMeta(key: string, value: unknown): Node;
}

const isNode = (x: unknown): x is Node => x !== null && typeof x === 'object' && 'op' in x && 'meta' in x;

/** Visits every node once, through macro expansions and their replacements. */
function walk(ast: unknown, fn: (n: Node) => void): void {
  const seen = new Set<unknown>();
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) return x.forEach(visit);
    if (!isNode(x)) return;
    fn(x);
    if (x.meta.alternate) visit(x.meta.alternate);
    if (x.meta.macro) Object.values(x.meta.macro).forEach(visit);
    if (Array.isArray(x.args)) visit(x.args);
    else if (x.args !== null && typeof x.args === 'object') {
      visit(x.args);
      Object.values(x.args).forEach(visit);
    }
  };
  visit(ast);
}

const isHas = (n: Node) =>
  n.op === 'call' && (n.args as unknown[])[0] === 'has' && n.meta.macro !== undefined;

function fromVariable(n: Node): boolean {
  while (n.op === '.' || n.op === '.?') n = (n.args as [Node])[0];
  return n.op === 'id';
}

/** A has() over any selection: the operand is evaluated, then the field's presence tested. */
function anyHas(arg: Node) {
  return {
    args: [arg],
    async: false,
    typeCheck(checker: Checker, _macro: unknown, ctx: Context) {
      checker.check((arg.args as [Node])[0], ctx);
      return checker.getType('bool');
    },
    evaluate(ev: Evaluator, _macro: unknown, ctx: Context) {
      let obj = ev.run((arg.args as [Node])[0], ctx);
      if (obj instanceof Optional) {
        if (!obj.hasValue()) return false;
        obj = obj.value();
      }
      return ev.debugType(obj).fieldLazy(obj, (arg.args as [Node, string])[1], arg, ev) !== undefined;
    },
  };
}

/** Gives has() over selections cel-js refuses a macro that takes them (call after parse, before check). */
export function rewriteHas(ast: ASTNode): void {
  walk(ast, (n) => {
    if (!isHas(n)) return;
    const arg = ((n.args as [string, Node[]])[1] ?? [])[0];
    if (arg && (arg.op === '.' || arg.op === '.?') && !fromVariable(arg)) n.setMeta('macro', anyHas(arg));
  });
}

function undefinedField(input: string, node: Node, field: string): Problem {
  const dot = input.lastIndexOf('.', node.start);
  return { message: `undefined field '${field}'`, at: dot >= 0 ? dot : node.start };
}

/**
 * The selections of fields an object type does not declare (`types`: the fields of each declared type), where
 * cel-js's check let them pass: in has() and after `.?`.
 */
export function undefinedFields(
  ast: ASTNode,
  input: string,
  types: Map<string, Record<string, string>>,
): Problem[] {
  const problems: Problem[] = [];
  const check = (typeName: string | undefined, node: Node, field: string): string | undefined => {
    const fields = typeName === undefined ? undefined : types.get(typeName);
    if (!fields) return undefined;
    if (!(field in fields)) problems.push(undefinedField(input, node, field));
    return fields[field];
  };
  walk(ast, (n) => {
    if (n.op === '[]' || n.op === '[?]') {
      // an object is not a map: cel-go has no index on it (cel-js looks the field up)
      const [operand, index] = n.args as [Node & { end: number }, Node];
      const t = operand.checkedType?.name;
      if (t !== undefined && types.has(t)) {
        const at = input.indexOf('[', operand.end);
        const types_ = `${t}, ${index.checkedType?.name ?? 'dyn'}`;
        problems.push({
          message: `found no matching overload for '_[_]' applied to '(${types_})'`,
          at: Math.max(at, 0),
        });
      }
    }
    if (n.op === '.?') {
      const [operand, field] = n.args as [Node, string];
      check(operand.checkedType?.name, n, field);
    }
    if (!isHas(n)) return;
    const props = n.meta.macro!.macroHasProps as Node[] | undefined;
    if (props) {
      // cel-js's has(): the selections, outermost first, then the variable (the only node it checked)
      let type = props[props.length - 1].checkedType?.name;
      for (let i = props.length - 2; i >= 0 && type !== undefined; i--) {
        type = check(type, props[i], (props[i].args as [Node, string])[1]);
      }
    } else {
      const arg = (n.meta.macro!.args as Node[])[0];
      const [operand, field] = arg.args as [Node, string];
      check(operand.checkedType?.name, arg, field);
    }
  });
  return problems;
}
