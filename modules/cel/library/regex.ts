// kube's regex library: find and findAll with RE2 patterns (translated to JavaScript's RegExp, cached).
import type { Environment } from '@marcbachmann/cel-js';
import { CelRuntimeError } from '../values.js';

const cache = new Map<string, RegExp>();

/** An RE2 pattern as a global, unicode RegExp; a leading `(?flags)` group becomes flags. */
export function compileRegex(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  // RE2 has no lookaround and no backreferences: kube refuses them where JavaScript would accept them
  const unsupported = /\(\?<?[=!]|\\[1-9]/.exec(pattern);
  if (unsupported) {
    throw new CelRuntimeError(
      `error parsing regexp: invalid or unsupported Perl syntax: \`${unsupported[0]}\``,
    );
  }
  let source = pattern
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$(?![\\s\\S])');
  let flags = 'gu';
  // a flags group at the start, or right after a `^` (Gateway API writes `^(?i)...`), applies to the whole
  // pattern, unless it is multi-line mode, which would change what that `^` means
  const lead = /^(\^?)\(\?([imsU]+)\)/.exec(source);
  if (lead && !(lead[1] && lead[2].includes('m'))) {
    source = lead[1] + source.slice(lead[0].length);
    for (const f of lead[2]) if (f !== 'U' && !flags.includes(f)) flags += f;
  }
  try {
    re = new RegExp(source, flags);
  } catch (e) {
    throw new CelRuntimeError(`error parsing regexp: ${(e as Error).message}`);
  }
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, re);
  return re;
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  if (limit === 0n) return [];
  const out: string[] = [];
  const re = compileRegex(pattern);
  re.lastIndex = 0;
  for (const m of s.matchAll(re)) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

export function registerRegex(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, p: string) => {
    const re = compileRegex(p);
    re.lastIndex = 0;
    return re.exec(s)?.[0] ?? '';
  });
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n));
  env.registerFunction('string.findAll(string, int): list<string>', findAll);
}
