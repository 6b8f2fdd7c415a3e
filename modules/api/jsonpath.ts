/**
 * kube's JSONPath templates (client-go util/jsonpath), as kubectl and CRD printer columns use them:
 * `{.a.b}`, `[n]`, `[s:e:step]`, `[*]`, `..`, unions `[a,b]`, filters `[?(@.x=="y")]`, text around the
 * braces. This file parses, with kube's error messages; `jsonpath-eval.ts` evaluates.
 */

export interface SliceParam {
  value: number;
  known: boolean;
  /** the end of `[n]`, which is n+1 */
  derived: boolean;
}

export type JSONPathNode =
  | { type: 'list'; nodes: JSONPathNode[] }
  | { type: 'text'; text: string }
  | { type: 'field'; name: string }
  | { type: 'array'; params: [SliceParam, SliceParam, SliceParam] }
  | { type: 'filter'; left: ListNode; right: ListNode; operator: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'union'; nodes: ListNode[] }
  | { type: 'identifier'; name: string };

export type ListNode = { type: 'list'; nodes: JSONPathNode[] };

export class JSONPathError extends Error {}

const eof = '';
const list = (): ListNode => ({ type: 'list', nodes: [] });
const isSpace = (r: string): boolean => r === ' ' || r === '\t';
const isEndOfLine = (r: string): boolean => r === '\r' || r === '\n';
const isAlphaNumeric = (r: string): boolean => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
const isDigit = (r: string): boolean => /^\p{Nd}$/u.test(r);
const isTerminator = (r: string): boolean =>
  r === eof || isSpace(r) || isEndOfLine(r) || '.,[]$@{}'.includes(r);

/** Go's %#U: `U+0028 '('`. */
function goRune(r: string): string {
  const cp = r.codePointAt(0) ?? 0;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${r}'`;
}

const sliceOperator = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const dictKey = /^'([^']*)'$/;
const filterExpression = /^([^!<>=]+)([!<>=]+)(.+?)$/;

class Parser {
  root: ListNode = list();
  private pos = 0;
  private start = 0;
  private width = 0;

  constructor(private readonly input: string) {}

  parse(): ListNode {
    this.parseText(this.root);
    return this.root;
  }

  private consume(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private next(): string {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return eof;
    }
    const r = String.fromCodePoint(this.input.codePointAt(this.pos)!);
    this.width = r.length;
    this.pos += r.length;
    return r;
  }

  private peek(): string {
    const r = this.next();
    this.pos -= this.width;
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private parseText(cur: ListNode): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consume() });
        this.pos += 1;
        this.consume();
        const action = list();
        cur.nodes.push(action);
        this.parseInside(action);
        return;
      }
      if (this.next() === eof) break;
    }
    if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consume() });
  }

  private parseInside(cur: ListNode): void {
    // the structure is a loop here where kube recurses: deep templates cannot exhaust the stack
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consume();
        this.parseText(this.root);
        return;
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        if (cur.nodes[cur.nodes.length - 1]?.type === 'recursive')
          throw new JSONPathError('invalid multiple recursive descent');
        this.pos += 2;
        this.consume();
        cur.nodes.push({ type: 'recursive' });
        if (isAlphaNumeric(this.peek())) this.parseField(cur);
        continue;
      }
      const r = this.next();
      if (r === eof || isEndOfLine(r)) throw new JSONPathError('unclosed action');
      if (r === ' ' || r === '@' || r === '$') this.consume();
      else if (r === '[') this.parseArray(cur);
      else if (r === '"' || r === "'") this.parseQuote(cur, r);
      else if (r === '.') this.parseField(cur);
      else if (r === '+' || r === '-' || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else throw new JSONPathError(`unrecognized character in action: ${goRune(r)}`);
    }
  }

  private parseIdentifier(cur: ListNode): void {
    while (!isTerminator(this.next()));
    if (this.width > 0) this.backup();
    const value = this.consume();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseNumber(cur: ListNode): void {
    const sign = this.peek();
    if (sign === '+' || sign === '-') this.next();
    for (;;) {
      const r = this.next();
      if (r !== '.' && !isDigit(r)) {
        if (this.width > 0) this.backup();
        break;
      }
    }
    const value = this.consume();
    if (/^[+-]?\d+$/.test(value)) cur.nodes.push({ type: 'int', value: Number(value) });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ type: 'float', value: Number(value) });
    else throw new JSONPathError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === eof || r === '\n') throw new JSONPathError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consume().slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ type: 'union', nodes: parts.map((p) => parseAction(`[${p.trim()}]`)) });
      return;
    }
    const dict = dictKey.exec(text);
    if (dict) {
      // kube reads ['a'] as .a, so dots inside the quotes still separate fields (escape them: ['a\.b'])
      cur.nodes.push(...parseAction(`.${dict[1]}`).nodes);
      return;
    }
    const m = sliceOperator.exec(text);
    if (!m) throw new JSONPathError(`invalid array index ${text}`);
    const params: SliceParam[] = [];
    for (let i = 0; i < 3; i++) {
      let v = m[i + 1] ?? '';
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params.push({ value: 0, known: false, derived: false });
        else {
          if (!/^-?\d+$/.test(v)) throw new JSONPathError(`array index ${v} is not a number`);
          params.push({ value: Number(v), known: true, derived: false });
        }
      } else if (i === 1) params.push({ value: params[0].value + 1, known: true, derived: true });
      else params.push({ value: 0, known: false, derived: false });
    }
    cur.nodes.push({ type: 'array', params: params as [SliceParam, SliceParam, SliceParam] });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consume();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === eof || r === '\n') throw new JSONPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') throw new JSONPathError('unclosed array expect ]');
    const text = this.consume().slice(0, -2);
    const m = filterExpression.exec(text);
    if (!m) cur.nodes.push({ type: 'filter', left: parseAction(text), right: list(), operator: 'exists' });
    else
      cur.nodes.push({ type: 'filter', left: parseAction(m[1]), right: parseAction(m[3]), operator: m[2] });
  }

  private parseQuote(cur: ListNode, quote: string): void {
    for (;;) {
      const r = this.next();
      if (r === eof || r === '\n') throw new JSONPathError('unterminated quoted string');
      if (r === quote && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consume();
    cur.nodes.push({ type: 'text', text: unquote(value) });
  }

  private parseField(cur: ListNode): void {
    this.consume();
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        if (this.width > 0) this.backup();
        break;
      }
    }
    const value = this.consume();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', name: value.replace(/\\/g, '') });
  }
}

const simpleEscapes: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

/** A quoted string literal with Go's escapes (strconv.UnquoteChar); single quotes work like double ones. */
function unquote(s: string): string {
  const quote = s[0];
  const body = s.slice(1, -1);
  const fail = (): never => {
    throw new JSONPathError(`unquote string ${s} error invalid syntax`);
  };
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === quote) fail();
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i] ?? '';
    if (simpleEscapes[e] !== undefined) {
      out += simpleEscapes[e];
      continue;
    }
    const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (hex > 0) {
      const digits = body.slice(i + 1, i + 1 + hex);
      if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) fail();
      out += String.fromCodePoint(parseInt(digits, 16));
      i += hex;
    } else if (/[0-7]/.test(e)) {
      const digits = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(digits)) fail();
      out += String.fromCharCode(parseInt(digits, 8));
      i += 2;
    } else fail();
  }
  return out;
}

/** One `{...}` action on its own (unions and filters parse their parts this way). */
function parseAction(text: string): ListNode {
  const root = new Parser(`{${text}}`).parse();
  return root.nodes[0] as ListNode;
}

/** Parses a template: text and `{...}` actions. Throws JSONPathError with kube's message. */
export function parseJSONPath(template: string): ListNode {
  return new Parser(template).parse();
}
