/**
 * The string formats kube checks in custom resources: its list of supported formats (apiextensions'
 * formats.go; any other format, int32 and double included, is dropped from the schema before validation)
 * and the checks of kube-openapi's strfmt registry, which go-openapi's govalidator and Go's net packages
 * implement there. Format names are compared with dashes removed (`date-time` is `datetime`).
 */
import { parseGoDuration } from '../api/index.js';
import { isMailAddress, isRequestURI, parseCIDR, parseIP, parseMAC } from './net-formats.js';

type Check = (s: string) => boolean;

const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const creditCard =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const ssn = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const hexColor = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rgbByte = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const rgbColor = new RegExp(`^rgb\\(${rgbByte},${rgbByte},${rgbByte}\\)$`);
const dateTimeTail = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const spacesAndDashes = /[\s-]+/g;

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

const symbolOrLetter = /^[\p{S}\p{L}]$/u;
const letter = /^\p{L}$/u;

/** strfmt's hostname character: a letter, digit or symbol (Unicode ones too) */
function hostChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 0x80) return /[a-zA-Z0-9$+<=>^`|~]/.test(ch);
  return symbolOrLetter.test(ch);
}

function labelValid(label: string[]): boolean {
  const n = label.length;
  if (n < 1 || n > 63 || !hostChar(label[0]) || !hostChar(label[n - 1])) return false;
  for (let i = 1; i < n - 1; i++) if (label[i] !== '-' && !hostChar(label[i])) return false;
  return true;
}

/**
 * strfmt's hostname pattern, matched by hand (the regexp with Unicode classes costs microseconds a value):
 * either one label that may hold a single dash right after its first character, or dot-separated labels
 * ending in 2 to 63 letters; then Go's limits of 255 bytes in all and 63 a label.
 */
function asciiHostChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 36 || // $ + < = > ^ ` | ~ are symbols (\p{S})
    c === 43 ||
    (c >= 60 && c <= 62) ||
    c === 94 ||
    c === 96 ||
    c === 124 ||
    c === 126
  );
}

/** The same check for an all-ASCII name without allocating; undefined when the name is not ASCII. */
function asciiHostname(s: string): boolean | undefined {
  const n = s.length;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) >= 0x80) return undefined;
  if (n > 255) return false;
  const lastDot = s.lastIndexOf('.');
  if (lastDot < 0) {
    if (!asciiHostChar(s.charCodeAt(0))) return false;
    let i = s.charCodeAt(1) === 45 ? 2 : 1;
    if (n - i > 62) return false;
    for (; i < n; i++) if (!asciiHostChar(s.charCodeAt(i))) return false;
    return true;
  }
  const tld = n - lastDot - 1;
  if (tld < 2 || tld > 63) return false;
  for (let i = lastDot + 1; i < n; i++) {
    const c = s.charCodeAt(i) | 0x20;
    if (c < 97 || c > 122) return false;
  }
  let start = 0;
  while (start <= lastDot) {
    const end = s.indexOf('.', start);
    const len = end - start;
    if (len < 1 || len > 63) return false;
    if (!asciiHostChar(s.charCodeAt(start)) || !asciiHostChar(s.charCodeAt(end - 1))) return false;
    for (let i = start + 1; i < end - 1; i++) {
      const c = s.charCodeAt(i);
      if (c !== 45 && !asciiHostChar(c)) return false;
    }
    start = end + 1;
  }
  return true;
}

function isHostname(s: string): boolean {
  if (s.length === 0) return false;
  const ascii = asciiHostname(s);
  if (ascii !== undefined) return ascii;
  const parts = s.split('.');
  if (parts.length === 1) {
    const chars = [...s];
    if (!hostChar(chars[0])) return false;
    let i = 1;
    if (chars[i] === '-') i++;
    if (chars.length - i > 62) return false;
    for (; i < chars.length; i++) if (!hostChar(chars[i])) return false;
  } else {
    const tld = [...parts[parts.length - 1]];
    if (tld.length < 2 || tld.length > 63) return false;
    for (const ch of tld)
      if (!(/[a-zA-Z]/.test(ch) || (ch.charCodeAt(0) >= 0x80 && letter.test(ch)))) return false;
    for (let i = 0; i < parts.length - 1; i++) if (!labelValid([...parts[i]])) return false;
  }
  if (byteLength(s) > 255) return false;
  return parts.every((part) => byteLength(part) <= 63);
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** time.Parse("2006-01-02", s) succeeding */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, Number(m[1]));
}

/** strfmt's date-time check: a date, a `t`, then the clock (compared as text, as strfmt does). */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = dateTimeTail.exec(parts[1]);
  return m !== null && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

/** strfmt's unit spellings: the last of each may be followed by more letters (`days`, `minutes`) */
const durationUnits: string[][] = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** Go's time.ParseDuration, or strfmt's looser form (`3 days`, `1 hour 5 min`). */
function isDuration(s: string): boolean {
  try {
    parseGoDuration(s);
    return true;
  } catch {
    // not Go's syntax: try the scala-like one
  }
  let ok = false;
  for (const m of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/gu)) {
    // Atoi refuses what does not fit an int64
    if (Number(m[1]) >= 2 ** 63) return false;
    const unit = m[2].trim().toLowerCase();
    for (const variants of durationUnits) {
      const last = variants.length - 1;
      variants.forEach((variant, i) => {
        if ((i === last && unit.startsWith(variant)) || variant === unit) ok = true;
      });
    }
  }
  return ok;
}

function isISBN10(s: string): boolean {
  const d = s.replace(spacesAndDashes, '');
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * (d.charCodeAt(i) - 48);
  sum += 10 * (d[9] === 'X' ? 10 : d.charCodeAt(9) - 48);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const d = s.replace(spacesAndDashes, '');
  if (!/^[0-9]{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (d.charCodeAt(i) - 48);
  return d.charCodeAt(12) - 48 === (10 - (sum % 10)) % 10;
}

function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]/g, '');
  if (!creditCard.test(d)) return false;
  let sum = 0;
  let double = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let n = d.charCodeAt(i) - 48;
    if (double) {
      n *= 2;
      if (n >= 10) n = (n % 10) + 1;
    }
    sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}

const checks: Record<string, Check> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isMailAddress,
  hostname: isHostname,
  ipv4: (s) => parseIP(s, true) && s.includes('.'),
  ipv6: (s) => parseIP(s, false) && s.includes(':'),
  cidr: (s) => parseCIDR(s, true),
  mac: parseMAC,
  uuid: (s) => uuid.test(s),
  uuid3: (s) => uuid3.test(s),
  uuid4: (s) => uuid4.test(s),
  uuid5: (s) => uuid5.test(s),
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && ssn.test(s),
  hexcolor: (s) => hexColor.test(s),
  rgbcolor: (s) => rgbColor.test(s),
  byte: (s) => base64.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

/**
 * The check for `format` when kube validates it in custom resources, else undefined (the format is
 * ignored: int32, int64, float, double, and any name kube does not know).
 */
export function formatCheck(format: string | undefined): Check | undefined {
  if (!format) return undefined;
  const name = format.includes('-') ? format.replace(/-/g, '') : format;
  return Object.prototype.hasOwnProperty.call(checks, name) ? checks[name] : undefined;
}
