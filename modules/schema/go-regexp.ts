/**
 * `pattern` in a CRD schema is a Go regexp (RE2 syntax), not ECMA-262: kube compiles it with Go's regexp
 * package. The two agree on most patterns people write; where they differ we translate Go's meaning into a
 * JavaScript RegExp (with the `u` flag, so `.` and classes work on code points as Go's do on runes):
 *
 * - `\s` is `[\t\n\f\r ]` in Go (no \v, no Unicode spaces); `\z` and `\A` are end and start of text;
 * - leading flag groups `(?i)`, `(?s)`, `(?m)` become flags; later ones (`^((?i)jan|feb)`, `(?i:x)`)
 *   last to the end of their group and are applied by hand; `(?P<name>` is a named group;
 * - `\pL` is `\p{L}`; POSIX classes such as `[[:alpha:]]` are expanded; `\Q...\E` is literal text;
 * - Go lets any punctuation be escaped (`\-`, `\_`, `\"`) and reads a `{` that starts no repeat count as a
 *   literal; the `u` flag refuses both, so they are written as plain or escaped literals;
 * - a `]` right after `[` or `[^` is a literal in Go.
 *
 * A pattern this cannot translate (`(?U)`, a negated POSIX class) gives undefined, and the caller
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

/** Flags Go lets a group turn on and off part-way (`(?i)` lasts to the end of the enclosing group). */
interface Scope {
  ci: boolean;
  dotAll: boolean;
  multi: boolean;
}

/** A letter and its other case, for case-insensitive matching without the `i` flag. */
function bothCases(ch: string): string {
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  if (lower === upper || [...lower].length !== 1 || [...upper].length !== 1) return '';
  return ch === lower ? upper : lower;
}

/** The other-case range of an ASCII letter range (`a-z` gives `A-Z`), or '' */
function otherCaseRange(from: string, to: string): string {
  const lowerRange = /^[a-z]$/.test(from) && /^[a-z]$/.test(to);
  const upperRange = /^[A-Z]$/.test(from) && /^[A-Z]$/.test(to);
  if (lowerRange) return `${from.toUpperCase()}-${to.toUpperCase()}`;
  if (upperRange) return `${from.toLowerCase()}-${to.toLowerCase()}`;
  return '';
}

function translate(src: string): { source: string; flags: string } | undefined {
  let flags = '';
  let i = 0;
  // flag groups at the very start apply to the whole pattern: JavaScript flags
  for (;;) {
    const m = /^\(\?([imsU]+)\)/.exec(src.slice(i));
    if (!m) break;
    if (m[1].includes('U')) return undefined;
    for (const f of m[1]) if (!flags.includes(f)) flags += f;
    i += m[0].length;
  }
  // flags set later are applied by hand: letters in both cases, `.` as any character, line anchors
  let scope: Scope = { ci: false, dotAll: false, multi: false };
  const scopes: Scope[] = [];
  const setFlags = (spec: string, into: Scope): boolean => {
    let on = true;
    for (const f of spec) {
      if (f === '-') on = false;
      else if (f === 'i') into.ci = on;
      else if (f === 's') into.dotAll = on;
      else if (f === 'm') into.multi = on;
      else return false;
      // a flag the whole pattern already has cannot be turned off here
      if (!on && flags.includes(f)) return false;
    }
    return true;
  };
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
        for (const ch of text) {
          const other = scope.ci ? bothCases(ch) : '';
          out += other ? (inClass ? `${ch}${other}` : `[${ch}${other}]`) : escapeLiteral(ch, inClass);
        }
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
        const prop = name.length <= 2 ? name : `Script=${name}`;
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
        if (!m || !set || m[1]) return undefined;
        out += set;
        i += m[0].length;
        continue;
      }
      if (c === ']') {
        inClass = false;
        out += c;
        i++;
        continue;
      }
      if (scope.ci && src[i + 1] === '-' && src[i + 2] !== undefined && src[i + 2] !== ']') {
        const to = src[i + 2];
        out += `${c}-${to}${otherCaseRange(c, to)}`;
        i += 3;
        continue;
      }
      out += c === '[' ? '\\[' : c;
      if (scope.ci) out += bothCases(c);
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
    if (c === '(') {
      const inline = /^\(\?([a-zA-Z-]*)(\)|:)/.exec(src.slice(i));
      if (inline && inline[1] !== '') {
        if (inline[2] === ')') {
          // (?i): on for the rest of the enclosing group
          if (!setFlags(inline[1], scope)) return undefined;
          i += inline[0].length;
          continue;
        }
        scopes.push(scope);
        scope = { ...scope };
        if (!setFlags(inline[1], scope)) return undefined;
        out += '(?:';
        i += inline[0].length;
        continue;
      }
      scopes.push(scope);
      scope = { ...scope };
      if (src.startsWith('(?P<', i)) {
        out += '(?<';
        i += 4;
      } else if (src.startsWith('(?:', i) || src.startsWith('(?<', i)) {
        out += src.slice(i, i + 3);
        i += 3;
      } else if (src[i + 1] === '?') return undefined;
      else {
        out += '(';
        i++;
      }
      continue;
    }
    if (c === ')') {
      scope = scopes.pop() ?? scope;
      out += ')';
      i++;
      continue;
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
    if (c === '.' && scope.dotAll) out += '[\\s\\S]';
    else if (c === '^' && scope.multi) out += '(?<![^\\n])';
    else if (c === '$' && scope.multi) out += '(?![^\\n])';
    else {
      const other = scope.ci ? bothCases(c) : '';
      out += other ? `[${c}${other}]` : c;
    }
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
