/**
 * A PostgreSQL array literal (`{"a",NULL,7}`) written value by value into a buffer that is kept and reused:
 * how the database backend hands a batch's column to PostgreSQL (one `$n::text[]` per column, `unnest`ed into
 * rows), without a string per value or per row on the way. Text is always quoted, so no value can read as NULL
 * or break the literal. PostgreSQL text holds no NUL character, and jsonb no `\u0000`: either becomes U+FFFD.
 */
export class ArrayLiteral {
  /** `{` and the values, each followed by a comma */
  private buf: Buffer = Buffer.from('{'.padEnd(4096));
  private length = 1;
  /** the last text written and where its quoted bytes are: a column's values repeat (the user, the client) */
  private last: string | undefined;
  private lastStart = 0;
  private lastEnd = 0;

  /** `NULL` for undefined */
  text(value: string | undefined): void {
    this.value(value, false);
  }

  /** JSON text (whose `\u0000` jsonb would refuse); `NULL` for undefined */
  json(value: string | undefined): void {
    this.value(value, true);
  }

  private value(value: string | undefined, json: boolean): void {
    if (value === undefined) return this.null();
    if (value === this.last) return this.again();
    const v = json && value.includes('\\u0000') ? value.replace(JSON_NUL, '$1\\ufffd') : value;
    const n = v.length;
    // at most 3 bytes per UTF-16 unit (an escaped ASCII character takes 2, a NUL's U+FFFD 3), quotes, comma
    this.room(n * 3 + 3);
    const buf = this.buf;
    let at = this.length;
    this.lastStart = at;
    buf[at++] = QUOTE;
    // short ASCII text is copied here (a Buffer.write call per value cost more than the copy); other text is
    // escaped as a string and encoded natively
    let i = 0;
    if (n <= 256)
      for (; i < n; i++) {
        const c = v.charCodeAt(i);
        if (c >= 0x80 || c === 0) break;
        if (c === QUOTE || c === BACKSLASH) buf[at++] = BACKSLASH;
        buf[at++] = c;
      }
    if (i < n) {
      const rest = i === 0 ? v : v.slice(i);
      at += buf.write(
        rest.replace(ESCAPED, (c) => (c === '\0' ? '\uFFFD' : `\\${c}`)),
        at,
        'utf8',
      );
    }
    buf[at++] = QUOTE;
    this.last = value;
    this.lastEnd = at;
    buf[at++] = COMMA;
    this.length = at;
  }

  /** the last text's bytes once more (most are short: copied here, not by a native call) */
  private again(): void {
    const size = this.lastEnd - this.lastStart;
    this.room(size + 1);
    const buf = this.buf;
    const from = this.lastStart;
    const at = this.length;
    if (size <= 64) for (let i = 0; i < size; i++) buf[at + i] = buf[from + i];
    else buf.copyWithin(at, from, this.lastEnd);
    this.lastStart = at;
    this.lastEnd = at + size;
    buf[at + size] = COMMA;
    this.length = at + size + 1;
  }

  private null(): void {
    this.room(5);
    const buf = this.buf;
    const at = this.length;
    buf[at] = 0x4e; // N
    buf[at + 1] = 0x55; // U
    buf[at + 2] = 0x4c; // L
    buf[at + 3] = 0x4c; // L
    buf[at + 4] = COMMA;
    this.length = at + 5;
  }

  /** a non-negative integer below 2^53, or `NULL` for undefined */
  int(value: number | undefined): void {
    if (value === undefined) return this.null();
    this.room(20);
    // in int32 arithmetic: the digits above the last eight, then those eight
    if (value < 1e8) this.length = digits(this.buf, this.length, value, 0);
    else {
      const high = Math.floor(value / 1e8);
      this.length = digits(this.buf, digits(this.buf, this.length, high, 0), value - high * 1e8, 8);
    }
    this.buf[this.length++] = COMMA;
  }

  /** `{…}`: the literal of the values written since the last clear */
  toString(): string {
    if (this.length === 1) return '{}';
    // the last comma stands in for the closing brace while the text is taken
    this.buf[this.length - 1] = CLOSE;
    const text = this.buf.toString('utf8', 0, this.length);
    this.buf[this.length - 1] = COMMA;
    return text;
  }

  clear(): void {
    this.length = 1;
    this.last = undefined;
  }

  /** `more` bytes free after what is written */
  private room(more: number): void {
    if (this.length + more <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + more));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }
}

/** `n` (below 1e8) in decimal at `at`, zero-padded to `width`; the offset after it */
function digits(buf: Buffer, at: number, n: number, width: number): number {
  let count = 1;
  for (let m = n; m >= 10; m = (m / 10) | 0) count++;
  if (count < width) count = width;
  let x = n;
  for (let i = at + count - 1; i >= at; i--) {
    const q = (x / 10) | 0;
    buf[i] = 0x30 + x - q * 10;
    x = q;
  }
  return at + count;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const CLOSE = 0x7d;
const ESCAPED = /["\\\0]/g;
/** `\u0000` in JSON text, not preceded by an escaped backslash */
const JSON_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;
