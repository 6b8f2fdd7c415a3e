// A rule's `fieldPath` (`.spec.x`, `['a.b']`): checked against the schema of the rule's node, and turned into the
// field path its errors are reported at, as kube's ValidFieldPath does (properties by name, map keys in brackets).
import type { Schema } from '../../api/index.js';

export type FieldPathResult = { ok: true; path: string; schema: Schema } | { ok: false; error: string };

/** A path's elements: `.name` for properties, `[key]` for map keys, joined as kube's field.Path prints them. */
export function joinPath(elements: { name: string; key: boolean }[]): string {
  let out = '';
  for (const e of elements) {
    if (e.key) out += `[${e.name}]`;
    else out += out === '' ? e.name : `.${e.name}`;
  }
  return out;
}

/** Tokens: the delimiters `.`, `[`, `]` alone, single-quoted strings whole, other text between delimiters. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else if ('.[]'.includes(path[i])) {
      out.push(path[i++]);
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

function unescapeQuoted(s: string): string {
  return s.replace(/\\(.)/gs, (m, c: string) => {
    const r = escapes[c];
    if (r === undefined) throw new Error(`invalid string literal: invalid escape char ${m}`);
    return r;
  });
}

/**
 * Checks `jsonPath` against `schema` (the node the rule is on). Array notation (`['key']`) is allowed unless
 * `allowArrayNotation` is false (selectable fields); list indices never are.
 */
export function validFieldPath(jsonPath: string, schema: Schema, allowArrayNotation = true): FieldPathResult {
  const elements: { name: string; key: boolean }[] = [];
  let s: Schema | undefined = schema;
  const fail = (error: string): FieldPathResult => ({ ok: false, error });
  const step = (name: string): string | undefined => {
    if (s?.properties && Object.keys(s.properties).length > 0) {
      elements.push({ name, key: false });
      s = s.properties[name];
      return s ? undefined : 'does not refer to a valid field';
    }
    if (s?.additionalProperties !== undefined && s.additionalProperties !== false) {
      elements.push({ name, key: true });
      s = typeof s.additionalProperties === 'object' ? s.additionalProperties : {};
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  const list = tokens(jsonPath);
  for (let i = 0; i < list.length; i++) {
    const tok = list[i];
    if (tok === '[') {
      if (!allowArrayNotation) return fail('array notation is not allowed');
      const quoted = list[++i];
      if (quoted === undefined) return fail('unexpected end of JSON path');
      if (quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'") {
        return fail(`expected single quoted string but got ${quoted}`);
      }
      let name: string;
      try {
        name = unescapeQuoted(quoted.slice(1, -1));
      } catch (e) {
        return fail((e as Error).message);
      }
      const error = step(name);
      if (error) return fail(error);
      const close = list[++i];
      if (close === undefined) return fail('unexpected end of JSON path');
      if (close !== ']') return fail(`expected ] but got ${close}`);
    } else if (tok === '.') {
      const name = list[++i];
      if (name === undefined) return fail('unexpected end of JSON path');
      const error = step(name);
      if (error) return fail(error);
    } else {
      return fail(`expected [ or . but got: ${tok}`);
    }
  }
  return { ok: true, path: joinPath(elements), schema: s ?? {} };
}
