// cel-go's strings extension, version 2 (kube since 1.29). cel-js already has indexOf, lastIndexOf, lowerAscii,
// upperAscii, trim, split, substring and join; this adds charAt, replace, format and strings.quote.
import type { Environment } from '@marcbachmann/cel-js';
import { CelRuntimeError, isDuration } from '../values.js';

const codePoints = (s: string) => Array.from(s);

function charAt(s: string, i: bigint): string {
  const cps = codePoints(s);
  if (i < 0n || i > BigInt(cps.length)) throw new CelRuntimeError(`index out of range: ${i}`);
  return cps[Number(i)] ?? '';
}

function replace(s: string, from: string, to: string, n: bigint): string {
  if (n === 0n) return s;
  if (n < 0n) return s.split(from).join(to);
  const parts = s.split(from);
  let out = parts[0];
  for (let i = 1; i < parts.length; i++) out += (BigInt(i) <= n ? to : from) + parts[i];
  return out;
}

const escapes: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

export function celQuote(s: string): string {
  let out = '"';
  for (const c of s) out += escapes[c] ?? c;
  return out + '"';
}

function formatValue(verb: string, precision: number | undefined, v: unknown): string {
  switch (verb) {
    case 's':
      return stringify(v);
    case 'd':
      if (typeof v === 'bigint' || (typeof v === 'object' && v?.constructor?.name === 'UnsignedInt')) {
        return String(v);
      }
      if (typeof v === 'number' && Number.isInteger(v)) return String(v);
      throw new CelRuntimeError(
        `error during formatting: decimal clause can only be used on integers, was given ${typeName(v)}`,
      );
    case 'f':
    case 'e': {
      const x = Number(v);
      const digits = precision ?? 6;
      if (Number.isNaN(x)) return 'NaN';
      if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
      if (verb === 'f') return x.toFixed(digits);
      return x.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2');
    }
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      const base = verb === 'b' ? 2 : verb === 'o' ? 8 : 16;
      let text: string;
      if (typeof v === 'string') text = Buffer.from(v).toString('hex');
      else if (v instanceof Uint8Array) text = Buffer.from(v).toString('hex');
      else text = BigInt(String(v)).toString(base);
      return verb === 'X' ? text.toUpperCase() : text;
    }
    default:
      throw new CelRuntimeError(
        `could not parse formatting clause: unrecognized formatting clause "${verb}"`,
      );
  }
}

function typeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  return 'map';
}

function stringify(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e21 ? String(v) : String(v);
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (Array.isArray(v)) return `[${v.map(stringifyQuoted).join(', ')}]`;
  if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
  if (isDuration(v)) return String(v);
  if (typeof v === 'object' && v.constructor === Object) {
    const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, x]) => `${celQuote(k)}: ${stringifyQuoted(x)}`).join(', ')}}`;
  }
  return String(v);
}

const stringifyQuoted = (v: unknown) => (typeof v === 'string' ? celQuote(v) : stringify(v));

function format(template: string, args: unknown[]): string {
  let out = '';
  let next = 0;
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    if (template[i + 1] === '%') {
      out += '%';
      i++;
      continue;
    }
    const clause = /^\.(\d+)?([a-zA-Z])|^([a-zA-Z])/.exec(template.slice(i + 1));
    if (!clause)
      throw new CelRuntimeError('could not parse formatting clause: unrecognized formatting clause');
    if (next >= args.length) {
      throw new CelRuntimeError(`index ${next} out of range`);
    }
    const verb = clause[2] ?? clause[3];
    out += formatValue(verb, clause[1] === undefined ? undefined : Number(clause[1]), args[next++]);
    i += clause[0].length;
  }
  return out;
}

class StringsNamespace {}

export function registerStrings(env: Environment): void {
  env.registerFunction('string.charAt(int): string', charAt);
  env.registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) =>
    replace(s, a, b, -1n),
  );
  env.registerFunction('string.replace(string, string, int): string', replace);
  env.registerFunction('string.format(list): string', format);
  env.registerType('StringsNamespace', StringsNamespace);
  env.registerConstant('strings', 'StringsNamespace', new StringsNamespace());
  env.registerFunction('StringsNamespace.quote(string): string', (_: unknown, s: string) => celQuote(s));
}
