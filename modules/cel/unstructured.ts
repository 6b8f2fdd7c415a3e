// kube's unstructured values in CEL (custom resources): a list keeps its schema's list type, which changes what
// `==`, `in` and `+` mean on it. A `set` list equals another list with the same elements in any order, a `map` list
// one whose items match by their keys; `+` adds only the new elements of a set and replaces map-list items with the
// same keys. cel-js compiles these variables as `dyn`, so its operators would pick overloads from the values'
// run-time types (the first element decides a list's type); these overrides compare structurally instead.
import type { ASTNode } from '@marcbachmann/cel-js';
import { celEquals, isPlainMap } from './values.js';

export type ListSemantics = { type: 'set' } | { type: 'map'; keys: string[] };

const semantics = new WeakMap<unknown[], ListSemantics>();

/** Marks a list with its schema's list type (`set` or `map` with its keys); returns the list. */
export function markList<T extends unknown[]>(list: T, s: ListSemantics): T {
  semantics.set(list, s);
  return list;
}

export function listSemantics(list: unknown[]): ListSemantics | undefined {
  return semantics.get(list);
}

const primitive = (v: unknown) =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  typeof v === 'number' ||
  typeof v === 'bigint';

function keyOf(item: unknown, keys: string[]): string | undefined {
  if (!isPlainMap(item)) return undefined;
  return JSON.stringify(keys.map((k) => (typeof item[k] === 'bigint' ? Number(item[k]) : item[k])));
}

function listEquals(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  const s = semantics.get(a);
  if (!s) return a.every((x, i) => unstructuredEquals(x, b[i]));
  if (s.type === 'set') return b.every((y) => a.some((x) => unstructuredEquals(x, y)));
  const byKey = new Map(a.map((x) => [keyOf(x, s.keys), x]));
  return b.every((y) => {
    const k = keyOf(y, s.keys);
    return k !== undefined && byKey.has(k) && unstructuredEquals(byKey.get(k), y);
  });
}

/** CEL equality of unstructured values, with kube's list types (the left operand's type decides, as in kube). */
export function unstructuredEquals(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return listEquals(a, b);
  if (isPlainMap(a) && isPlainMap(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && unstructuredEquals(a[k], b[k]));
  }
  return celEquals(a, b);
}

/** `+` on lists: a set adds the elements it lacks, a map list replaces items by key and appends the rest. */
function concat(a: unknown[], b: unknown[]): unknown[] {
  const s = semantics.get(a);
  if (!s) return [...a, ...b];
  const out = [...a];
  if (s.type === 'set') {
    for (const y of b) if (!out.some((x) => unstructuredEquals(x, y))) out.push(y);
    return markList(out, s);
  }
  const at = new Map(a.map((x, i) => [keyOf(x, s.keys), i]));
  for (const y of b) {
    const i = at.get(keyOf(y, s.keys));
    if (i === undefined) out.push(y);
    else out[i] = y;
  }
  return markList(out, s);
}

const container = (v: unknown) => Array.isArray(v) || isPlainMap(v);

interface Node {
  op: string;
  args: unknown;
  handle?: (l: unknown, r: unknown, ast: unknown, ev: unknown) => unknown;
  setMeta(key: string, value: unknown): Node;
  meta: { alternate?: unknown; macro?: Record<string, unknown> };
}
type Run = { run(node: unknown, ctx: unknown): unknown };

function override(n: Node, decide: (l: unknown, r: unknown) => unknown): void {
  const [left, right] = n.args as [unknown, unknown];
  n.setMeta('evaluate', (ev: Run, _ast: unknown, ctx: unknown) => {
    const l = ev.run(left, ctx);
    const r = ev.run(right, ctx);
    const v = decide(l, r);
    return v === undefined ? n.handle!(l, r, n, ev) : v;
  });
}

function equality(l: unknown, r: unknown): boolean | undefined {
  if (container(l) || container(r)) return unstructuredEquals(l, r);
  // heterogeneous equality is false in CEL (numbers compare across int and double)
  if (primitive(l) && primitive(r)) return celEquals(l, r);
  return undefined;
}

const rules: Record<string, (l: unknown, r: unknown) => unknown> = {
  '==': equality,
  '!=': (l, r) => {
    const eq = equality(l, r);
    return eq === undefined ? undefined : !eq;
  },
  in: (l, r) => {
    if (Array.isArray(r)) return r.some((x) => unstructuredEquals(l, x));
    if (isPlainMap(r)) return typeof l === 'string' && Object.hasOwn(r, l);
    return undefined;
  },
  '+': (l, r) => (Array.isArray(l) && Array.isArray(r) ? concat(l, r) : undefined),
};

/** Rewrites the operators of a checked AST to kube's unstructured semantics (before it is instrumented). */
export function applyUnstructured(ast: ASTNode): void {
  const seen = new Set<unknown>();
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) return x.forEach(visit);
    if (!('op' in x)) return;
    const n = x as Node;
    const rule = rules[n.op];
    if (rule && !n.meta.alternate && !n.meta.macro) override(n, rule);
    if (n.meta.alternate) visit(n.meta.alternate);
    if (n.meta.macro) Object.values(n.meta.macro).forEach(visit);
    if (Array.isArray(n.args)) visit(n.args);
    else if (n.args !== null && typeof n.args === 'object') {
      visit(n.args);
      Object.values(n.args).forEach(visit);
    }
  };
  visit(ast);
}
