/**
 * The error Go's json.Unmarshal returns when decoding bytes into a map[string]interface{}, which kube
 * quotes verbatim when a docker config Secret holds malformed JSON. Syntax is checked first (Go's scanner,
 * iteratively so deep nesting cannot exhaust the stack), then the top-level type.
 */

const maxNestingDepth = 10000;
const unexpectedEnd = 'unexpected end of JSON input';

/** Go's quoteChar: the byte in single quotes, escaped as strconv.Quote would escape it. */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const named: Record<number, string> = {
    7: '\\a',
    8: '\\b',
    9: '\\t',
    10: '\\n',
    11: '\\v',
    12: '\\f',
    13: '\\r',
  };
  if (named[c]) return `'${named[c]}'`;
  if (c === 0x5c) return "'\\\\'";
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // a byte >= 0x80 is printed as the code point U+0080..U+00FF
  if (c >= 0x80 && (c < 0xa1 || c === 0xad)) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCodePoint(c)}'`;
}

class SyntaxError extends Error {}

const invalid = (c: number, context: string): SyntaxError =>
  new SyntaxError(`invalid character ${quoteChar(c)} ${context}`);

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

type Frame = 'object-key' | 'object-value' | 'array';

class Scanner {
  private i = 0;
  constructor(private readonly b: Buffer) {}

  private peek(): number {
    if (this.i >= this.b.length) throw new SyntaxError(unexpectedEnd);
    return this.b[this.i];
  }

  private skipSpace(): void {
    while (this.i < this.b.length && isSpace(this.b[this.i])) this.i++;
  }

  /** Scans one scalar, or opens containers down to the first pending key or scalar (pushing their frames). */
  private beginValue(stack: Frame[]): void {
    for (;;) {
      this.skipSpace();
      const c = this.peek();
      if (c === 0x22) return this.string();
      if (c === 0x2d || isDigit(c)) return this.number();
      if (c === 0x74) return this.literal('true');
      if (c === 0x66) return this.literal('false');
      if (c === 0x6e) return this.literal('null');
      if (c !== 0x7b && c !== 0x5b) throw invalid(c, 'looking for beginning of value');
      this.i++;
      if (stack.length >= maxNestingDepth) throw invalid(c, 'exceeded max depth');
      this.skipSpace();
      const next = this.peek();
      if (c === 0x7b) {
        if (next === 0x7d) return void this.i++;
        if (next !== 0x22) throw invalid(next, 'looking for beginning of object key string');
        this.string();
        stack.push('object-key');
        return;
      }
      if (next === 0x5d) return void this.i++;
      stack.push('array');
    }
  }

  private string(): void {
    this.i++; // opening quote
    for (;;) {
      const c = this.peek();
      this.i++;
      if (c === 0x22) return;
      if (c < 0x20) throw invalid(c, 'in string literal');
      if (c !== 0x5c) continue;
      const e = this.peek();
      this.i++;
      if (e === 0x75) {
        for (let k = 0; k < 4; k++) {
          const h = this.peek();
          if (!isHex(h)) throw invalid(h, 'in \\u hexadecimal character escape');
          this.i++;
        }
      } else if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) {
        throw invalid(e, 'in string escape code');
      }
    }
  }

  private digitsThen(context: string): void {
    const c = this.peek();
    if (!isDigit(c)) throw invalid(c, context);
    while (this.i < this.b.length && isDigit(this.b[this.i])) this.i++;
  }

  private number(): void {
    if (this.b[this.i] === 0x2d) {
      this.i++;
      const c = this.peek();
      if (!isDigit(c)) throw invalid(c, 'in numeric literal');
    }
    if (this.b[this.i] === 0x30) this.i++;
    else this.digitsThen('in numeric literal');
    if (this.i < this.b.length && this.b[this.i] === 0x2e) {
      this.i++;
      this.digitsThen('after decimal point in numeric literal');
    }
    if (this.i < this.b.length && (this.b[this.i] === 0x65 || this.b[this.i] === 0x45)) {
      this.i++;
      if (this.i < this.b.length && (this.b[this.i] === 0x2b || this.b[this.i] === 0x2d)) this.i++;
      this.digitsThen('in exponent of numeric literal');
    }
  }

  private literal(word: string): void {
    this.i++;
    for (const expected of word.slice(1)) {
      const c = this.peek();
      if (c !== expected.charCodeAt(0)) throw invalid(c, `in literal ${word} (expecting '${expected}')`);
      this.i++;
    }
  }

  scan(): void {
    const stack: Frame[] = [];
    this.beginValue(stack);
    while (stack.length > 0) {
      this.skipSpace();
      const c = this.peek();
      const top = stack[stack.length - 1];
      if (top === 'object-key') {
        if (c !== 0x3a) throw invalid(c, 'after object key');
        this.i++;
        stack[stack.length - 1] = 'object-value';
        this.beginValue(stack);
      } else if (top === 'object-value') {
        this.i++;
        if (c === 0x7d) stack.pop();
        else if (c === 0x2c) {
          this.skipSpace();
          const k = this.peek();
          if (k !== 0x22) throw invalid(k, 'looking for beginning of object key string');
          this.string();
          stack[stack.length - 1] = 'object-key';
        } else throw invalid(c, 'after object key:value pair');
      } else {
        this.i++;
        if (c === 0x5d) stack.pop();
        else if (c === 0x2c) this.beginValue(stack);
        else throw invalid(c, 'after array element');
      }
    }
    this.skipSpace();
    if (this.i < this.b.length) throw invalid(this.b[this.i], 'after top-level value');
  }
}

/** Go's json.Unmarshal(bytes, &map[string]interface{}{}) error text, or undefined when it succeeds. */
export function goUnmarshalObjectError(bytes: Buffer): string | undefined {
  try {
    new Scanner(bytes).scan();
  } catch (err) {
    if (err instanceof SyntaxError) return err.message;
    throw err;
  }
  let i = 0;
  while (isSpace(bytes[i])) i++;
  const c = bytes[i];
  const kind =
    c === 0x7b || c === 0x6e
      ? undefined
      : c === 0x5b
        ? 'array'
        : c === 0x22
          ? 'string'
          : c === 0x74 || c === 0x66
            ? 'bool'
            : 'number';
  return kind ? `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}` : undefined;
}
