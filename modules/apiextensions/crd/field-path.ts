/**
 * kube's check that a path names a field of a structural schema (ValidFieldPath, used by selectableFields
 * and by a rule's `fieldPath`): `.a.b`, `['a.b']` where the schema declares properties, a map key where it
 * declares additionalProperties. No list indexes.
 */
import { isRaw, subSchema, type Raw } from './schema-walk.js';

export type FieldPathResult =
  { ok: true; segments: string[]; path: string; schema: Raw | undefined } | { ok: false; error: string };

/** Splits like kube's scanner: `.`, `[` and `]` alone, a single-quoted string whole, the rest between. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j])) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

const escapes: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

function unescape(s: string): string | { error: string } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') {
      out += s[i];
      continue;
    }
    const e = escapes[s[i + 1]];
    if (e === undefined) return { error: `invalid escape char \\${s[i + 1] ?? ''}` };
    out += e;
    i++;
  }
  return out;
}

export function validFieldPath(path: string, root: Raw, allowArrayNotation: boolean): FieldPathResult {
  let schema: Raw | undefined = root;
  const segments: string[] = [];
  let rendered = '';
  const step = (name: string): string | undefined => {
    if (!schema) return 'does not refer to a valid field';
    const props = subSchema(schema, 'properties');
    if (props && Object.keys(props).length > 0) {
      const next: unknown = props[name];
      if (!isRaw(next)) return 'does not refer to a valid field';
      schema = next;
      rendered = rendered ? `${rendered}.${name}` : name;
    } else if (schema.additionalProperties !== undefined) {
      schema = subSchema(schema, 'additionalProperties');
      rendered = `${rendered}[${name}]`;
    } else {
      return 'does not refer to a valid field';
    }
    segments.push(name);
    return undefined;
  };
  const toks = tokens(path);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok === '[') {
      if (!allowArrayNotation) return { ok: false, error: 'array notation is not allowed' };
      const q = toks[++i];
      if (q === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'")
        return { ok: false, error: `expected single quoted string but got ${q}` };
      const name = unescape(q.slice(1, -1));
      if (typeof name !== 'string') return { ok: false, error: `invalid string literal: ${name.error}` };
      const err = step(name);
      if (err) return { ok: false, error: err };
      const close = toks[++i];
      if (close === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (close !== ']') return { ok: false, error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      const err = step(name);
      if (err) return { ok: false, error: err };
    } else {
      return { ok: false, error: `expected [ or . but got: ${tok}` };
    }
  }
  return { ok: true, segments, path: rendered, schema };
}
