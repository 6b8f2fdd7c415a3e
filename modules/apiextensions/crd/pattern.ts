/**
 * Whether a schema's `pattern` compiles as Go's RE2 would. RE2 has no lookaround and no backreferences, which
 * JavaScript accepts; the rest is checked by compiling it without the `u` flag, which is at least as lenient
 * as RE2 about escapes (`\-`, `\/`) that CRDs in the wild use.
 */
export function compilePattern(pattern: string): string | undefined {
  const unsupported = /\(\?<?[=!]/.exec(pattern);
  if (unsupported) return `error parsing regexp: invalid or unsupported Perl syntax: \`${unsupported[0]}\``;
  const backref = /\\[1-9]/.exec(pattern);
  if (backref) return `error parsing regexp: invalid escape sequence: \`${backref[0]}\``;
  // RE2 spells named groups (?P<name>...) and inline flags (?i); JavaScript only the first as (?<name>...)
  const source = pattern.replace(/\(\?P</g, '(?<').replace(/^\(\?[imsU]+\)/, '');
  try {
    new RegExp(source);
    return undefined;
  } catch (e) {
    return `error parsing regexp: ${(e as Error).message}`;
  }
}
