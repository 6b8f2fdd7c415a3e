/**
 * The string formats kube checks in custom resources: its list of supported formats (apiextensions'
 * formats.go; any other format, int32 and double included, is dropped from the schema before validation)
 * and the checks of kube-openapi's strfmt registry, which go-openapi's govalidator and Go's net packages
 * implement there. Format names are compared with dashes removed (`date-time` is `datetime`).
 */
import { parseGoDuration } from '../api/index.js';
import { isMailAddress, isRequestURI, parseCIDR, parseIP, parseMAC } from './net-formats.js';

type Check = (s: string) => boolean;

const hostnamePattern =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
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

function isHostname(s: string): boolean {
  if (!hostnamePattern.test(s) || byteLength(s) > 255) return false;
  return s.split('.').every((part) => byteLength(part) <= 63);
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
