#!/usr/bin/env node
// `npm test`: lint, format check, typecheck + the test build (tsconfig.test.json: everything into dist-test/,
// apart from the production build in dist/), then every spec and e2e spec against real PostgreSQL (DATABASE_URL
// if set, else one embedded PostgreSQL for the whole run; each test file makes its own database).
// `node scripts/test.mjs dist-test/test/api.e2e-spec.js ...` runs chosen compiled files (src paths work too).
// Ends with the line `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const only = process.argv.slice(2).map((f) => path.resolve(f));
process.chdir(root);

function step(name, cmd, args) {
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  console.log(
    `${name}: ${r.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return r.status === 0;
}

const out = 'dist-test';

/** The compiled specs of the spec sources under `dir`: a spec whose source is gone is not run from a stale out/. */
function specFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...specFiles(p));
    else if (/\.(spec|e2e-spec)\.ts$/.test(entry.name)) found.push(path.join(out, p.replace(/\.ts$/, '.js')));
  }
  return found.sort();
}

/** `test/x.spec.ts` or `dist/test/x.spec.js` as the file the test build made: `dist-test/test/x.spec.js`. */
function compiled(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === out) return path.join(...rel);
  if (rel[0] === 'dist') rel.shift();
  return path.join(out, ...rel).replace(/\.ts$/, '.js');
}

let checksOk = true;
if (only.length === 0) {
  checksOk = step('lint', 'npx', ['eslint', '.']) && checksOk;
  checksOk = step('format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']) && checksOk;
}
const build = () => step('typecheck+build', 'npx', ['tsc', '-p', 'tsconfig.test.json']);
let built = build();
const files = only.length > 0 ? only.map(compiled) : ['modules', 'src', 'test'].flatMap(specFiles);
const needed = [...files, 'src/main.js', 'modules/storage/index.js'].map((f) =>
  f.startsWith(out) ? f : path.join(out, f),
);
if (built && !needed.every((f) => existsSync(f))) {
  // outputs deleted under an incremental build that thinks they are there: build again from scratch
  rmSync(path.join(out, '.tsbuildinfo'), { force: true });
  built = build();
}
if (!built) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const { startEmbeddedPostgres } = await import(path.join(root, out, 'modules/storage/index.js'));
let cluster;
let baseUrl = process.env.DATABASE_URL;
if (!baseUrl) {
  const dir = path.join(root, '.test-data', 'postgres');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  const started = Date.now();
  cluster = await startEmbeddedPostgres({ dir, database: 'postgres', fsync: false });
  baseUrl = cluster.url;
  console.log(`embedded PostgreSQL for the tests: up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const tap = path.join(root, '.test-data', 'results.tap');
mkdirSync(path.dirname(tap), { recursive: true });
const child = spawn(
  process.execPath,
  [
    '--test',
    '--test-concurrency=2',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, PGKUBE_TEST_POSTGRES_URL: baseUrl } },
);
const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
if (cluster) await cluster.stop();

const summary = readFileSync(tap, 'utf8');
const count = (label) => Number((summary.match(new RegExp(`^# ${label} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
const passed = count('pass');
const failed = count('fail') + count('cancelled') + (checksOk ? 0 : 1);
if (!checksOk) console.log('lint or format check failed (counted as one failure)');
console.log(`${passed} passed, ${failed} failed`);
process.exit(code === 0 && checksOk ? 0 : 1);
