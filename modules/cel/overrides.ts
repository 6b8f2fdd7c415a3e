// cel-js functions whose results differ from cel-go's, replaced at their call sites (cel-js cannot re-register a
// signature): lowerAscii and upperAscii change ASCII letters only; matches takes RE2 patterns (flag groups,
// named groups) as find and findAll do.
import type { ASTNode } from '@marcbachmann/cel-js';
import { compileRegex } from './library/regex.js';
import { CelRuntimeError } from './values.js';

interface Node {
  op: string;
  args: unknown;
  setMeta(key: string, value: unknown): Node;
}

type Run = { run(node: unknown, ctx: unknown): unknown };

const ascii: Record<string, (s: string) => string> = {
  lowerAscii: (s) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase()),
  upperAscii: (s) => s.replace(/[a-z]+/g, (m) => m.toUpperCase()),
};

export function applyOverrides(ast: ASTNode): void {
  const seen = new Set<unknown>();
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) return x.forEach(visit);
    if (!('op' in x)) return;
    const n = x as Node;
    const args = n.args as unknown[];
    if (n.op === 'rcall' && (args[0] as string) in ascii && (args[2] as unknown[]).length === 0) {
      const change = ascii[args[0] as string];
      const receiver = args[1];
      n.setMeta('evaluate', (ev: Run, _ast: unknown, ctx: unknown) => {
        const s = ev.run(receiver, ctx);
        if (typeof s !== 'string') throw new CelRuntimeError('no such overload');
        return change(s);
      });
    }
    const matchArgs =
      n.op === 'rcall' && args[0] === 'matches' && (args[2] as unknown[]).length === 1
        ? [args[1], (args[2] as unknown[])[0]]
        : n.op === 'call' && args[0] === 'matches' && (args[1] as unknown[]).length === 2
          ? (args[1] as unknown[])
          : undefined;
    if (matchArgs) {
      const [text, pattern] = matchArgs;
      n.setMeta('evaluate', (ev: Run, _ast: unknown, ctx: unknown) => {
        const s = ev.run(text, ctx);
        const p = ev.run(pattern, ctx);
        if (typeof s !== 'string' || typeof p !== 'string') throw new CelRuntimeError('no such overload');
        const re = compileRegex(p);
        re.lastIndex = 0;
        return re.test(s);
      });
    }
    const meta = (n as unknown as { meta: { alternate?: unknown; macro?: Record<string, unknown> } }).meta;
    if (meta.alternate) visit(meta.alternate);
    if (meta.macro) Object.values(meta.macro).forEach(visit);
    if (Array.isArray(n.args)) visit(n.args);
    else if (n.args !== null && typeof n.args === 'object') {
      visit(n.args);
      Object.values(n.args).forEach(visit);
    }
  };
  visit(ast);
}
