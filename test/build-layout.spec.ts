/**
 * The production build (tsconfig.build.json → dist/) compiles production code only: src and modules without
 * their specs, and bench. The test build (tsconfig.test.json → dist-test/) compiles everything. Each has its
 * own output folder and its own incremental build info.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import ts from 'typescript';

// this file runs as dist-test/test/build-layout.spec.js
const root = fileURLToPath(new URL('../../', import.meta.url));

function parsed(config: string): ts.ParsedCommandLine {
  const result = ts.getParsedCommandLineOfConfigFile(
    path.join(root, config),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) =>
        assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  );
  assert.ok(result, config);
  return result;
}

/** The project's files a build compiles (its roots and what they import), relative to the repo root. */
function compiledFiles(config: string): string[] {
  const { fileNames, options } = parsed(config);
  const program = ts.createProgram(fileNames, options);
  return program
    .getSourceFiles()
    .map((f) => path.relative(root, f.fileName))
    .filter((f) => !f.startsWith('..') && !f.split(path.sep).includes('node_modules'))
    .sort();
}

describe('build layout', () => {
  it('the production build compiles no spec and, of test/, only the support bench uses', () => {
    const files = compiledFiles('tsconfig.build.json');
    assert.ok(files.includes(path.join('src', 'main.ts')));
    assert.ok(files.includes(path.join('modules', 'storage', 'index.ts')));
    assert.ok(files.includes(path.join('bench', 'create.ts')));
    assert.deepEqual(
      files.filter((f) => /\.(spec|e2e-spec)\.ts$/.test(f)),
      [],
    );
    // bench starts servers the way the e2e tests do (server.ts), bench/create --auth=all configures every
    // authentication method with the tests' certificates and token webhook, and bench/aggregation sets up the
    // aggregation e2e's pair of servers (aggregation.ts, with its database and RBAC helpers) and bench/sidecar the
    // sidecar e2e's (sidecar.ts)
    assert.deepEqual(
      files.filter((f) => f.startsWith(`test${path.sep}`)).sort(),
      [
        'aggregation.ts',
        'certificates.ts',
        'database.ts',
        'rbac.ts',
        'server.ts',
        'sidecar.ts',
        'token-webhook.ts',
      ].map((f) => path.join('test', 'support', f)),
    );
  });

  it('the test build compiles the specs, test support and production code', () => {
    const files = parsed('tsconfig.test.json').fileNames.map((f) => path.relative(root, f));
    for (const f of [
      'src/main.ts',
      'modules/apply/index.ts',
      'test/api.e2e-spec.ts',
      'test/support/database.ts',
    ])
      assert.ok(files.includes(path.join(...f.split('/'))), f);
  });

  it('the builds write to their own folders, each with its own build info', () => {
    const build = parsed('tsconfig.build.json').options;
    const test = parsed('tsconfig.test.json').options;
    assert.equal(path.relative(root, build.outDir!), 'dist');
    assert.equal(path.relative(root, test.outDir!), 'dist-test');
    assert.equal(path.relative(root, build.tsBuildInfoFile!), path.join('dist', '.tsbuildinfo'));
    assert.equal(path.relative(root, test.tsBuildInfoFile!), path.join('dist-test', '.tsbuildinfo'));
    assert.equal(path.relative(root, build.rootDir!), '');
    assert.equal(path.relative(root, test.rootDir!), '');
  });
});
