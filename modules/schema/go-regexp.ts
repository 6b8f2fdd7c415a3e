/**
 * `pattern` in a CRD schema is a Go regexp (RE2 syntax), not ECMA-262: kube compiles it with Go's regexp
 * package. The two agree on most patterns people write; where they differ we translate Go's meaning into a
 * JavaScript RegExp (with the `u` flag, so `.` and classes work on code points as Go's do on runes):
 *
 * - `\s` is `[\t\n\f\r ]` in Go (no \v, no Unicode spaces); `\z` and `\A` are end and start of text;
 * - leading flag groups `(?i)`, `(?s)`, `(?m)` become flags; `(?P<name>` is a named group;
 * - `\pL` is `\p{L}`; POSIX classes such as `[[:alpha:]]` are expanded; `\Q...\E` is literal text;
 * - Go lets any punctuation be escaped (`\-`, `\_`, `\"`) and reads a `{` that starts no repeat count as a
 *   literal; the `u` flag refuses both, so they are written as plain or escaped literals;
 * - a `]` right after `[` or `[^` is a literal in Go.
 *
 * A pattern this cannot translate (inline flags in the middle, `(?U)`) gives undefined, and the caller
 * skips the check rather than refuse a value kube would accept. Patterns Go refuses are refused by CRD
 * validation before any object meets them.
 */

const cache = new Map<string, RegExp | null>();

const posixClasses: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7f',
  blank: '\\t ',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** characters JavaScript's `u` flag accepts after a backslash as themselves */
const jsSyntax = new Set('^$\\.*+?()[]{}|/'.split(''));
const goSpace = '\\t\\n\\f\\r ';

function isPunct(c: string): boolean {
  return /^[!-/:-@[-`{-~]$/.test(c);
}

function escapeLiteral(c: string, inClass: boolean): string {
  if (jsSyntax.has(c) || (inClass && c === '-')) return `\\${c}`;
  return c;
}

/** Whether `{` at i starts a Go repeat count: {n}, {n,} or {n,m}. */
function repeatAt(src: string, i: number): number {
  const m = /^\{\d+(,\d*)?\}/.exec(src.slice(i));
  return m ? m[0].length : 0;
}

function translate(src: string): { source: string; flags: string } | undefined {
  let flags = '';
  let i = 0;
  // leading flag groups apply to the whole pattern
  for (;;) {
    const m = /^\(\?([imsU]+)\)/.exec(src.slice(i));
    if (!m) break;
    if (m[1].includes('U')) return undefined;
    for (const f of m[1]) if (!flags.includes(f)) flags += f;
    i += m[0].length;
  }
  let out = '';
  let inClass = false;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      const n = src[i + 1];
      if (n === undefined) return undefined;
      if (n === 'Q') {
        const end = src.indexOf('\\E', i + 2);
        const text = end < 0 ? src.slice(i + 2) : src.slice(i + 2, end);
        for (const ch of text) out += escapeLiteral(ch, inClass);
        i = end < 0 ? src.length : end + 2;
        continue;
      }
      if (n === 'z') out += inClass ? 'z' : '$(?![\\s\\S])';
      else if (n === 'A') out += inClass ? 'A' : '^';
      else if (n === 's') out += inClass ? goSpace : `[${goSpace}]`;
      else if (n === 'S') out += inClass ? '\\S' : `[^${goSpace}]`;
      else if (n === 'p' || n === 'P') {
        // Go names scripts bare (\p{Greek}); JavaScript wants Script=Greek for them
        const braced = src[i + 2] === '{';
        const end = braced ? src.indexOf('}', i) : i + 3;
        if (braced && end < 0) return undefined;
        let name = braced ? src.slice(i + 3, end) : src[i + 2];
        let neg = n === 'P';
        if (name.startsWith('^')) {
          neg = !neg;
          name = name.slice(1);
        }
        const prop = name.length <= 2 || name === 'Any' ? name : `Script=${name}`;
        out += name === 'Any' ? (neg ? '[^\\s\\S]' : '[\\s\\S]') : `\\${neg ? 'P' : 'p'}{${prop}}`;
        i = braced ? end + 1 : i + 3;
        continue;
      } else if (n === 'x' && src[i + 2] === '{') {
        const end = src.indexOf('}', i);
        out += `\\u{${src.slice(i + 3, end)}}`;
        i = end + 1;
        continue;
      } else if (isPunct(n)) out += escapeLiteral(n, inClass);
      else out += `\\${n}`;
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === '[' && src[i + 1] === ':') {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(src.slice(i));
        const set = m && posixClasses[m[2]];
        if (!m || !set) return undefined;
        if (m[1]) return undefined;
        out += set;
        i += m[0].length;
        continue;
      }
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c;
      i++;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += '[';
      i++;
      if (src[i] === '^') {
        out += '^';
        i++;
      }
      if (src[i] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && src[i + 1] === '?') {
      if (src.startsWith('(?P<', i)) {
        out += '(?<';
        i += 4;
        continue;
      }
      if (src[i + 2] === ':') {
        out += '(?:';
        i += 3;
        continue;
      }
      if (src[i + 2] === '<') {
        out += '(?<';
        i += 3;
        continue;
      }
      // inline flags in the middle of a pattern: JavaScript has no equivalent here
      return undefined;
    }
    if (c === '{') {
      const len = repeatAt(src, i);
      if (len > 0) {
        out += src.slice(i, i + len);
        i += len;
      } else {
        out += '\\{';
        i++;
      }
      continue;
    }
    if (c === '}') {
      out += '\\}';
      i++;
      continue;
    }
    out += c;
    i++;
  }
  return { source: out, flags: `u${flags}` };
}

/** The compiled pattern, or undefined when it cannot be translated (cached either way). */
export function goRegExp(pattern: string): RegExp | undefined {
  const cached = cache.get(pattern);
  if (cached !== undefined) return cached ?? undefined;
  let re: RegExp | null = null;
  const t = translate(pattern);
  if (t) {
    try {
      re = new RegExp(t.source, t.flags);
    } catch {
      re = null;
    }
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(pattern, re);
  return re ?? undefined;
}
