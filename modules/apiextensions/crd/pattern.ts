/**
 * Whether a schema's `pattern` compiles as Go's RE2 would. RE2 has no lookaround and no backreferences, which
 * JavaScript accepts; the rest is checked by compiling it without the `u` flag, which is at least as lenient
 * as RE2 about escapes (`\-`, `\/`) that CRDs in the wild use. RE2's inline flags (`(?i)` anywhere, as
 * prometheus-operator writes them, and `(?i:...)`) and `(?P<name>` have no JavaScript spelling, so they are
 * rewritten first: only whether the pattern compiles matters here, not what it matches.
 */
export function compilePattern(pattern: string): string | undefined {
  const unsupported = /\(\?<?[=!]/.exec(pattern);
  if (unsupported) return `error parsing regexp: invalid or unsupported Perl syntax: \`${unsupported[0]}\``;
  const backref = /\\[1-9]/.exec(pattern);
  if (backref) return `error parsing regexp: invalid escape sequence: \`${backref[0]}\``;
  const source = pattern
    .replace(/(?<!\\)\(\?P</g, '(?<')
    .replace(/(?<!\\)\(\?[imsU]*(-[imsU]+)?\)/g, '')
    .replace(/(?<!\\)\(\?[imsU]*(-[imsU]+)?:/g, '(?:');
  try {
    new RegExp(source);
    return undefined;
  } catch (e) {
    return `error parsing regexp: ${(e as Error).message}`;
  }
}
