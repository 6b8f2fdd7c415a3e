// The literal checks kube adds to the type checker (cel-go's AST validators, kube since 1.29): duration and
// timestamp literals must parse, matches() patterns must compile, and list and map literals must be
// homogeneous, except inside format() arguments.
import { evaluate, type ASTNode } from '@marcbachmann/cel-js';
import { compileRegex } from './library/regex.js';

export interface Problem {
  message: string;
  at: number;
}

interface Node {
  op: string;
  args: unknown;
  start: number;
  checkedType?: { name: string };
  meta: { alternate?: unknown; macro?: unknown };
}

const isNode = (x: unknown): x is Node => x !== null && typeof x === 'object' && 'op' in x && 'meta' in x;

/** cel-go's spelling of a type: list(int), map(string, dyn). */
export function celTypeName(name: string): string {
  return name.replace(/</g, '(').replace(/>/g, ')');
}

const parses = (fn: string, literal: string) => {
  try {
    evaluate(`${fn}(${JSON.stringify(literal)})`);
    return true;
  } catch {
    return false;
  }
};

function checkLiteral(fn: string, arg: Node | undefined, problems: Problem[]): void {
  if (!arg || arg.op !== 'value' || typeof arg.args !== 'string') return;
  let ok: boolean;
  if (fn === 'matches') {
    try {
      compileRegex(arg.args);
      ok = true;
    } catch {
      ok = false;
    }
  } else ok = parses(fn, arg.args);
  if (!ok) problems.push({ message: `invalid ${fn} argument`, at: arg.start });
}

function homogeneous(types: (string | undefined)[], nodes: Node[], problems: Problem[]): void {
  const first = types[0];
  for (let i = 1; i < types.length; i++) {
    if (types[i] !== first) {
      problems.push({
        message: `expected type '${celTypeName(first ?? 'dyn')}' but found '${celTypeName(types[i] ?? 'dyn')}'`,
        at: nodes[i].start,
      });
      return;
    }
  }
}

const bytesExtras = new Set(['json', 'hex', 'string', 'base64', 'at']);

export function literalProblems(ast: ASTNode): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<Node>();
  const visit = (n: Node, inFormat: boolean): void => {
    if (seen.has(n)) return;
    seen.add(n);
    const args = n.args as unknown[];
    if (n.op === 'call' || n.op === 'rcall') {
      const name = args[0] as string;
      const params = (n.op === 'rcall' ? args[2] : args[1]) as Node[];
      const receiver = n.op === 'rcall' ? (args[1] as Node) : undefined;
      // cel-js has these, kube v1.32 does not (no bindings extension, no bytes helpers)
      if (receiver?.op === 'id' && receiver.args === 'cel') {
        problems.push({ message: "undeclared reference to 'cel' (in container '')", at: receiver.start });
      } else if (receiver?.checkedType?.name === 'bytes' && bytesExtras.has(name)) {
        problems.push({
          message: `found no matching overload for '${name}' applied to 'bytes.(${params.map((p) => celTypeName(p.checkedType?.name ?? 'dyn')).join(', ')})'`,
          at: n.start,
        });
      }
      if (name === 'duration' || name === 'timestamp') checkLiteral(name, params[0], problems);
      if (name === 'matches') checkLiteral(name, n.op === 'rcall' ? params[0] : params[1], problems);
      if (n.op === 'rcall') visit(args[1] as Node, false);
      for (const p of params) visit(p, name === 'format');
      return;
    }
    if (n.op === 'list' && !inFormat) {
      const elems = args as Node[];
      homogeneous(
        elems.map((e) => e.checkedType?.name),
        elems,
        problems,
      );
    }
    if (n.op === 'map' && !inFormat) {
      const entries = args as [Node, Node][];
      homogeneous(
        entries.map(([k]) => k.checkedType?.name),
        entries.map(([k]) => k),
        problems,
      );
      homogeneous(
        entries.map(([, v]) => v.checkedType?.name),
        entries.map(([, v]) => v),
        problems,
      );
    }
    const keepFormat = inFormat && (n.op === 'list' || n.op === 'map');
    const children: unknown[] = Array.isArray(n.args) ? (n.args as unknown[]).flat() : [n.args];
    for (const c of children) if (isNode(c)) visit(c, keepFormat);
  };
  visit(ast as unknown as Node, false);
  return problems;
}
