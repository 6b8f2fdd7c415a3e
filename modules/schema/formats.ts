/**
 * Value formats kube's typed decoding enforces, with Go's error texts: base64 for []byte fields
 * (encoding/base64 StdEncoding), RFC 3339 timestamps (time.Parse with metav1.Time / MicroTime layouts),
 * and resource quantities (resource.ParseQuantity).
 */

// ---- base64 ----

const b64 = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  b64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;
}

/** Result of checkBase64 when the text is valid and exactly as Go would re-encode it. */
export const base64Canonical = -1;
/** Valid, but Go re-encodes it differently (line breaks, non-zero trailing bits). */
export const base64Valid = -2;

function isNewline(c: number): boolean {
  return c === 10 || c === 13;
}

/**
 * Go's StdEncoding.Decode: returns the byte offset of the first error (the N of "illegal base64 data at
 * input byte N"), or base64Canonical / base64Valid.
 */
export function checkBase64(s: string): number {
  const n = s.length;
  let si = 0;
  let canonical = true;
  while (si < n) {
    let last = 0;
    let j = 0;
    let dlen = 4;
    for (; j < 4; j++) {
      if (si === n) return j === 0 ? (canonical ? base64Canonical : base64Valid) : si - j;
      const c = s.charCodeAt(si++);
      const v = c < 128 ? b64[c] : -1;
      if (v >= 0) {
        last = v;
        continue;
      }
      if (isNewline(c)) {
        canonical = false;
        j--;
        continue;
      }
      if (c !== 61 || j < 2) return si - 1;
      if (j === 2) {
        while (si < n && isNewline(s.charCodeAt(si))) {
          si++;
          canonical = false;
        }
        if (si === n) return n;
        if (s.charCodeAt(si) !== 61) return si - 1;
        si++;
      }
      while (si < n && isNewline(s.charCodeAt(si))) {
        si++;
        canonical = false;
      }
      if (si < n) return si;
      dlen = j;
      break;
    }
    // bits beyond the last whole byte are ignored by Go but dropped when it re-encodes
    if ((dlen === 2 && (last & 0x0f) !== 0) || (dlen === 3 && (last & 0x03) !== 0)) canonical = false;
    if (dlen < 4) break;
  }
  return canonical ? base64Canonical : base64Valid;
}

// ---- RFC 3339 timestamps (Go time.Parse) ----

export const rfc3339Layout = '2006-01-02T15:04:05Z07:00';
export const rfc3339MicroLayout = '2006-01-02T15:04:05.000000Z07:00';

/** Go's time-package quote: non-ASCII and control bytes as \xNN. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x80 || cp < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"';
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** A timestamp parsed as Go parses it, or Go's error text. */
export type TimeParse = { ok: true; canonical: string } | { ok: false; error: string };

/**
 * Parses `value` with the RFC 3339 layout (or the microsecond layout MicroTime uses) and returns the text
 * kube would serialize back (UTC; seconds, or exactly six fraction digits), or time.Parse's error text.
 */
export function parseGoTime(value: string, micro: boolean): TimeParse {
  const layout = micro ? rfc3339MicroLayout : rfc3339Layout;
  const cannot = (rest: string, elem: string): TimeParse => ({
    ok: false,
    error: `parsing time ${timeQuote(value)} as ${timeQuote(layout)}: cannot parse ${timeQuote(rest)} as ${timeQuote(elem)}`,
  });
  const failed = (msg: string): TimeParse => ({ ok: false, error: `parsing time ${timeQuote(value)}${msg}` });
  const outOfRange = (what: string): TimeParse => failed(`: ${what} out of range`);

  let p = 0;
  const n = value.length;
  const lit = (c: string): boolean => {
    if (p < n && value[p] === c) {
      p++;
      return true;
    }
    return false;
  };
  /** two digits, or (for the hour) one */
  const num = (fixed: boolean): number => {
    if (!isDigitAt(value, p)) return -1;
    if (!isDigitAt(value, p + 1)) {
      if (fixed) return -1;
      return value.charCodeAt(p++) - 48;
    }
    const v = (value.charCodeAt(p) - 48) * 10 + value.charCodeAt(p + 1) - 48;
    p += 2;
    return v;
  };

  if (
    n - p < 4 ||
    !isDigitAt(value, 0) ||
    !isDigitAt(value, 1) ||
    !isDigitAt(value, 2) ||
    !isDigitAt(value, 3)
  )
    return cannot(value, '2006');
  const year = Number(value.slice(0, 4));
  p = 4;
  if (!lit('-')) return cannot(value.slice(p), '-');
  let hold = p;
  const month = num(true);
  if (month < 0) return cannot(value.slice(hold), '01');
  if (month === 0 || month > 12) return outOfRange('month');
  if (!lit('-')) return cannot(value.slice(p), '-');
  hold = p;
  const day = num(true);
  if (day < 0) return cannot(value.slice(hold), '02');
  if (!lit('T')) return cannot(value.slice(p), 'T');
  hold = p;
  const hour = num(false);
  const hourDigits = p - hold;
  if (hour >= 24) return outOfRange('hour');
  if (hour < 0) return cannot(value.slice(hold), '15');
  if (!lit(':')) return cannot(value.slice(p), ':');
  hold = p;
  const minute = num(true);
  if (minute >= 60) return outOfRange('minute');
  if (minute < 0) return cannot(value.slice(hold), '04');
  if (!lit(':')) return cannot(value.slice(p), ':');
  hold = p;
  const second = num(true);
  if (second < 0) return cannot(value.slice(hold), '05');
  if (second >= 60) return outOfRange('second');

  let fraction = '';
  if (micro) {
    hold = p;
    const c = value[p];
    if (n - p < 7 || (c !== '.' && c !== ',')) return cannot(value.slice(hold), '.000000');
    for (let i = 1; i < 7; i++) if (!isDigitAt(value, p + i)) return cannot(value.slice(hold), '.000000');
    fraction = value.slice(p + 1, p + 7);
    p += 7;
  } else if (n - p >= 2 && (value[p] === '.' || value[p] === ',') && isDigitAt(value, p + 1)) {
    // Go accepts a fraction the layout does not ask for; Time keeps whole seconds
    p += 2;
    while (isDigitAt(value, p)) p++;
  }

  hold = p;
  let offset = 0;
  if (lit('Z')) {
    // UTC
  } else {
    if (n - p < 6 || value[p + 3] !== ':') return cannot(value.slice(hold), 'Z07:00');
    const sign = value[p];
    p++;
    const hh = num(true);
    p++;
    const mm = hh < 0 ? -1 : num(true);
    if (hh < 0 || mm < 0) return cannot(value.slice(hold), 'Z07:00');
    if (mm > 60) return outOfRange('time zone offset minute');
    if (hh > 24) return outOfRange('time zone offset hour');
    if (sign !== '+' && sign !== '-') return cannot(value.slice(hold), 'Z07:00');
    offset = (hh * 60 + mm) * 60 * (sign === '-' ? -1 : 1);
  }
  if (p < n) return failed(`: extra text: ${timeQuote(value.slice(p))}`);
  if (day < 1 || day > daysIn(month, year)) return failed(': day out of range');

  const utcAlready = offset === 0 && value[n - 1] === 'Z' && hourDigits === 2;
  if (utcAlready && (micro ? value[19] === '.' : p === 20)) return { ok: true, canonical: value };
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  const t = new Date(d.getTime() - offset * 1000);
  const text =
    `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1, 2)}-${pad(t.getUTCDate(), 2)}` +
    `T${pad(t.getUTCHours(), 2)}:${pad(t.getUTCMinutes(), 2)}:${pad(t.getUTCSeconds(), 2)}`;
  return { ok: true, canonical: micro ? `${text}.${fraction}Z` : `${text}Z` };
}

// ---- resource quantities ----

export const quantityFormatError =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const quantitySuffixError = "unable to parse quantity's suffix";
export const quantityNumericError = 'unable to parse numeric part of quantity';

const suffixChars = 'eEinumkKMGTP';
const namedSuffixes = new Set([
  '',
  'n',
  'u',
  'm',
  'k',
  'M',
  'G',
  'T',
  'P',
  'E',
  'Ki',
  'Mi',
  'Gi',
  'Ti',
  'Pi',
  'Ei',
]);
const exponentSuffix = /^[eE][+-]?[0-9]+$/;

/** resource.ParseQuantity's verdict: undefined when valid, else its error text. */
export function quantityError(text: string): string | undefined {
  const s = text.trim();
  if (s.length === 0) return quantityFormatError;
  if (s === '0') return undefined;
  const end = s.length;
  let pos = 0;
  if (s[0] === '-' || s[0] === '+') pos++;
  while (pos < end && s[pos] === '0') pos++;
  if (pos >= end) return undefined;
  let digits = pos > 0 && s[pos - 1] === '0';
  while (pos < end && isDigitAt(s, pos)) {
    pos++;
    digits = true;
  }
  if (pos < end && s[pos] === '.') {
    pos++;
    while (pos < end && isDigitAt(s, pos)) {
      pos++;
      digits = true;
    }
  }
  const suffixStart = pos;
  while (pos < end && suffixChars.includes(s[pos])) pos++;
  if (pos < end && (s[pos] === '-' || s[pos] === '+')) pos++;
  while (pos < end && isDigitAt(s, pos)) pos++;
  if (pos < end) return quantityFormatError;
  const suffix = s.slice(suffixStart);
  if (!namedSuffixes.has(suffix) && !exponentSuffix.test(suffix)) return quantitySuffixError;
  return digits ? undefined : quantityNumericError;
}
