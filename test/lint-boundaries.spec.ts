/**
 * The lint rule pgkube/module-boundaries (lint/module-boundaries.js, on in eslint.config.js): a relative import
 * that reaches into modules/<name>/ from outside that folder must go through modules/<name>/index.ts.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

// this file runs as dist-test/test/lint-boundaries.spec.js
const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The messages of pgkube/module-boundaries for `code` linted as if it were the file `file`. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'pgkube/module-boundaries').map((m) => m.message);
}

describe('lint: modules are imported through their index.ts', () => {
  it('reports an import from src/ past a module index', async () => {
    const errors = await boundaryErrors(
      'src/example.ts',
      "import { x } from '../modules/registry/store.js';\nexport { x };\n",
    );
    assert.equal(errors.length, 1);
    assert.match(
      errors[0],
      /modules\/registry\/ past its index\.ts: import '\.\.\/modules\/registry\/index\.js'/,
    );
  });

  it('reports a deep import between modules, in re-exports and dynamic imports too', async () => {
    const errors = await boundaryErrors(
      'modules/endpoints/example.ts',
      [
        "import { a } from '../api/index.js';",
        "import type { B } from '../registry/definition.js';",
        "export * from '../storage/database.js';",
        "export { c } from '../codec/protobuf/encode.js';",
        "const d = await import('../watch/cache.js');",
        'export { a, d };',
        'export type { B };',
      ].join('\n'),
    );
    assert.equal(errors.length, 4, errors.join('\n'));
  });

  it('reports deep imports from test/ and bench/', async () => {
    const code = "import { x } from '../modules/storage/database.js';\nexport { x };\n";
    assert.equal((await boundaryErrors('test/example.spec.ts', code)).length, 1);
    assert.equal((await boundaryErrors('bench/example.ts', code)).length, 1);
    const nested = "import { x } from '../../modules/api/meta/object-meta.js';\nexport { x };\n";
    assert.equal((await boundaryErrors('test/support/example.ts', nested)).length, 1);
  });

  it('passes imports through index.ts, inside one module, and of packages', async () => {
    assert.deepEqual(
      await boundaryErrors(
        'src/server/example.ts',
        [
          "import { a } from '../../modules/api/index.js';",
          "import { b } from '../config/config.js';",
          "import postgres from 'postgres';",
          'export { a, b, postgres };',
        ].join('\n'),
      ),
      [],
    );
    assert.deepEqual(
      await boundaryErrors(
        'modules/registry/sub/example.ts',
        [
          "import { a } from '../store.js';",
          "import { b } from '../../registry/definition.js';",
          "import { c } from '../../api/index.js';",
          "import { d } from './x.js';",
          'export { a, b, c, d };',
        ].join('\n'),
      ),
      [],
    );
  });

  it('fails `eslint` on a file that breaks the rule', async () => {
    const [result] = await eslint.lintText("export * from '../modules/apply/server-side/apply.js';\n", {
      filePath: path.join(root, 'src/example.ts'),
    });
    assert.equal(result.errorCount, 1);
    assert.equal(ESLint.getErrorResults([result]).length, 1);
  });
});
