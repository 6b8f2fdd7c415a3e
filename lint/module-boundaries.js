// ESLint rule `pgkube/module-boundaries`: each folder modules/<name>/ is a module that other code imports only
// through its index.ts. A relative import (or re-export, or dynamic import of a string literal) that resolves
// into modules/<name>/ from a file outside that folder must name modules/<name>/index.js (or index.ts).
// Files inside one module import each other freely; bare package imports are not looked at.
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));

/** `modules/<name>/...` of an absolute path, split, or undefined when it is not under modules/. */
function moduleOf(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] !== 'modules' || rel.length < 2) return undefined;
  return { name: rel[1], rest: rel.slice(2) };
}

/** @type {import('eslint').Rule.RuleModule} */
export const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'import a module under modules/ only through its index.ts' },
    schema: [],
    messages: {
      deep: "'{{source}}' reaches into modules/{{module}}/ past its index.ts: import '{{index}}' instead",
    },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename ?? context.filename);
    const from = moduleOf(file);
    function check(node) {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const source = node.value;
      if (!source.startsWith('./') && !source.startsWith('../') && source !== '.' && source !== '..') return;
      const target = moduleOf(path.resolve(path.dirname(file), source));
      if (!target || (from && from.name === target.name)) return;
      if (target.rest.length === 1 && /^index\.(js|ts)$/.test(target.rest[0])) return;
      const index = path.relative(path.dirname(file), path.join(root, 'modules', target.name, 'index.js'));
      context.report({
        node,
        messageId: 'deep',
        data: { source, module: target.name, index: index.startsWith('.') ? index : `./${index}` },
      });
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `import x = require('...')` and `import('...')` types
      TSExternalModuleReference: (node) => check(node.expression),
      TSImportType: (node) =>
        check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default { meta: { name: 'pgkube' }, rules: { 'module-boundaries': moduleBoundaries } };
