/**
 * Evaluation of kube's JSONPath templates (parsed by `jsonpath.ts`) over decoded JSON, and the text kube
 * prints for the results. JSON null counts as absent wherever kube's reflection skips nil values.
 */
import {
  JSONPathError,
  parseJSONPath,
  type JSONPathNode,
  type ListNode,
  type SliceParam,
} from './jsonpath.js';

/** A float literal of the template: Go keeps it apart from integers when comparing. */
class FloatLiteral {
  constructor(readonly value: number) {}
}

/** A byte of a string, as `[*]` and `..` yield them over strings. */
class StringByte {
  constructor(readonly value: number) {}
}

export interface EvalOptions {
  /** a missing field yields nothing instead of an error (kubectl's default, and printer columns') */
  allowMissingKeys?: boolean;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's type name in kube's messages, for decoded JSON. */
function goType(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (isMap(v)) return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof StringByte) return 'uint8';
  if (v instanceof FloatLiteral) return 'float64';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return 'interface {}';
}

class Evaluator {
  constructor(private readonly opts: EvalOptions) {}

  walk(values: unknown[], node: JSONPathNode): unknown[] {
    switch (node.type) {
      case 'list':
        return node.nodes.reduce((cur, n) => this.walk(cur, n), values);
      case 'text':
        return [node.text];
      case 'field':
        return this.field(values, node.name);
      case 'array':
        return values.flatMap((v) => sliceOf(v, node.params));
      case 'filter':
        return values.flatMap((v) => this.filter(v, node));
      case 'int':
      case 'bool':
        return values.map(() => node.value);
      case 'float':
        return values.map(() => new FloatLiteral(node.value));
      case 'wildcard':
        return values.flatMap(children);
      case 'recursive':
        return this.recursive(values);
      case 'union':
        return node.nodes.flatMap((n) => this.walk(values, n));
      case 'identifier':
        // range/end are kubectl's template loops; tables and columns never use them
        throw new JSONPathError(`unrecognized identifier ${node.name}`);
    }
  }

  private field(values: unknown[], name: string): unknown[] {
    if (values.length === 0) return [];
    const out: unknown[] = [];
    for (const v of values) if (isMap(v) && Object.hasOwn(v, name)) out.push(v[name]);
    if (out.length === 0 && !this.opts.allowMissingKeys) throw new JSONPathError(`${name} is not found`);
    return out;
  }

  private recursive(values: unknown[]): unknown[] {
    const out: unknown[] = [];
    for (const v of values) {
      if (v === null || v === undefined) continue;
      const kids = children(v);
      if (kids.length > 0) out.push(v, ...this.recursive(kids));
    }
    return out;
  }

  private filter(value: unknown, node: Extract<JSONPathNode, { type: 'filter' }>): unknown[] {
    if (!Array.isArray(value))
      throw new JSONPathError(`${goText(value)} is not array or slice and cannot be filtered`);
    const out: unknown[] = [];
    for (const item of value) {
      if (node.operator === 'exists') {
        let lefts: unknown[] = [];
        try {
          lefts = this.walk([item], node.left);
        } catch {
          // a missing field is simply not there
        }
        if (lefts.length > 0) out.push(item);
        continue;
      }
      const lefts = this.walk([item], node.left);
      if (lefts.length === 0) continue;
      if (lefts.length > 1) throw new JSONPathError('can only compare one element at a time');
      const rights = this.walk([item], node.right);
      if (rights.length === 0) continue;
      if (rights.length > 1) throw new JSONPathError('can only compare one element at a time');
      if (compare(lefts[0], rights[0], node.operator)) out.push(item);
    }
    return out;
  }
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isMap(v)) return Object.values(v);
  if (typeof v === 'string') return [...Buffer.from(v)].map((b) => new StringByte(b));
  return [];
}

type Params = [SliceParam, SliceParam, SliceParam];

function sliceOf(value: unknown, template: Params): unknown[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new JSONPathError(`${goType(value)} is not array or slice`);
  const p = template.map((x) => ({ ...x })) as Params;
  const len = value.length;
  if (!p[0].known) p[0].value = 0;
  if (p[0].value < 0) p[0].value += len;
  if (!p[1].known) p[1].value = len;
  if (p[1].value < 0 || (p[1].value === 0 && p[1].derived)) p[1].value += len;
  // asking for no elements is allowed anywhere
  if (p[1].value === p[0].value) return [];
  if (p[0].value >= len || p[0].value < 0)
    throw new JSONPathError(`array index out of bounds: index ${p[0].value}, length ${len}`);
  if (p[1].value > len || p[1].value < 0)
    throw new JSONPathError(`array index out of bounds: index ${p[1].value - 1}, length ${len}`);
  if (p[0].value > p[1].value)
    throw new JSONPathError(`starting index ${p[0].value} is greater than ending index ${p[1].value}`);
  let step = 1;
  if (p[2].known) {
    if (p[2].value <= 0) throw new JSONPathError('step must be > 0');
    step = p[2].value;
  }
  const out: unknown[] = [];
  for (let i = p[0].value; i < p[1].value; i += step) out.push(value[i]);
  return out;
}

type Kind = 'bool' | 'int' | 'float' | 'string' | 'invalid';

function kindOf(v: unknown): Kind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof FloatLiteral) return 'float';
  if (v instanceof StringByte) return 'int';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return 'invalid';
}

const plain = (v: unknown): unknown => (v instanceof FloatLiteral || v instanceof StringByte ? v.value : v);

/** Go template's comparisons, as kube's fork has them: same basic kind only. */
function compare(a: unknown, b: unknown, op: string): boolean {
  const ka = kindOf(a);
  const kb = kindOf(b);
  const equal = (): boolean => {
    if (ka === 'invalid' || kb === 'invalid') throw new JSONPathError('invalid type for comparison');
    if (ka !== kb) throw new JSONPathError('incompatible types for comparison');
    return plain(a) === plain(b);
  };
  const less = (): boolean => {
    if (ka === 'invalid' || kb === 'invalid' || ka === 'bool')
      throw new JSONPathError('invalid type for comparison');
    if (ka !== kb) throw new JSONPathError('incompatible types for comparison');
    return (plain(a) as number | string) < (plain(b) as number | string);
  };
  switch (op) {
    case '==':
      return equal();
    case '!=':
      return !equal();
    case '<':
      return less();
    case '<=':
      return less() || equal();
    case '>':
      return !(less() || equal());
    case '>=':
      return !less();
    default:
      throw new JSONPathError(`unrecognized filter operator ${op}`);
  }
}

/**
 * The values a template finds: one list per part of the template (text, then each `{...}`), as kube's
 * FindResults returns them. Throws JSONPathError with kube's message.
 */
export function findResults(template: ListNode, data: unknown, opts: EvalOptions = {}): unknown[][] {
  const evaluator = new Evaluator(opts);
  return template.nodes.map((node) => evaluator.walk([data], node).map(plain));
}

/** Go's %v of a float64: shortest digits, exponent form below 1e-4 and from 1e6 on (fmt.Print(1e8) is 1e+08). */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exp] = n.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

/** Go's encoding/json of decoded JSON: sorted keys, HTML characters escaped. */
export function goJSON(v: unknown): string {
  const sorted = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sorted);
    if (isMap(x))
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, sorted(x[k])]),
      );
    return x;
  };
  return JSON.stringify(sorted(v))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One value as kube prints it: maps and lists as JSON, the rest as Go's fmt.Print does. */
export function goText(v: unknown): string {
  if (Array.isArray(v) || isMap(v)) return goJSON(v);
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? String(v) : goFloat(v);
  return String(v);
}

/** The results of one part printed as kube's PrintResults does: space-separated. */
export function printResults(results: unknown[]): string {
  return results.map(goText).join(' ');
}

/** Parses and runs a template over data, printing every part, as `kubectl -o jsonpath=...` does. */
export function executeJSONPath(
  template: string,
  data: unknown,
  opts: EvalOptions = { allowMissingKeys: true },
): string {
  return findResults(parseJSONPath(template), data, opts).map(printResults).join('');
}
