// Property names as CEL identifiers, kube's escaping: a property `foo-bar` is `self.foo__dash__bar` in a rule, a
// property named like a CEL reserved word `self.__namespace__`. Names CEL cannot spell (a leading digit, other
// punctuation) are left out of `self`'s type, so rules cannot reach them.

const reserved = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const replacements: Record<string, string> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/** The CEL identifier of a property, or undefined when CEL cannot name it. */
export function escapeName(name: string): string | undefined {
  if (name === '' || (name[0] >= '0' && name[0] <= '9')) return undefined;
  if (reserved.has(name)) return `__${name}__`;
  if (!/^[A-Za-z0-9_./-]*$/.test(name)) return undefined;
  if (!/__|[./-]/.test(name)) return name;
  return name.replace(/__|[./-]/g, (m) => replacements[m]);
}

const unescapes: Record<string, string> = { underscores: '__', dot: '.', dash: '-', slash: '/' };

/** The property an escaped identifier names, or undefined when it is not one escapeName makes. */
export function unescapeName(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (m) => {
    const inner = m.slice(2, -2);
    if (inner in unescapes) return unescapes[inner];
    if (reserved.has(inner) && m.length === escaped.length) return inner;
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}
