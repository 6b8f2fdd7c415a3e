/**
 * modules/sql's views against real PostgreSQL, without a server: what a sync creates, that a sync with nothing
 * changed runs no DDL, that changed and removed kinds replace and drop their views (and only the views pgkube
 * made), that replicas syncing at once make one set of views, and the reader role's privileges.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { servedKindOf } from '../modules/apiextensions/index.js';
import { builtinDefinitions } from '../modules/kinds/index.js';
import { Registry } from '../modules/registry/index.js';
import { syncViews, viewSpecs, type ViewSpec } from '../modules/sql/index.js';
import { connect, migrate } from '../modules/storage/index.js';
import { testDatabase, type TestDatabase } from './support/database.js';

function widgetsCrd(properties: Record<string, unknown>) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties } },
        },
      ],
    },
    status: {
      acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      conditions: [{ type: 'Established', status: 'True' }],
    },
  };
}

describe('SQL views: sync', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;
  const registry = new Registry();
  const specs = (): ViewSpec[] =>
    viewSpecs(registry.stored, { exposeSecretData: false, base: 'public', retentionMs: 300_000 });
  const widgets = (properties: Record<string, unknown>) =>
    registry.register(servedKindOf(widgetsCrd(properties) as never)!);
  const views = async () =>
    new Map(
      (
        await sql<{ name: string; oid: number }[]>`
          SELECT c.relname AS name, c.oid::int AS oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'k8s' AND c.relkind = 'v'`
      ).map((r) => [r.name, r.oid]),
    );
  const columns = async (view: string) =>
    (
      await sql<{ name: string }[]>`
        SELECT attname AS name FROM pg_attribute
        WHERE attrelid = ${`k8s."${view}"`}::regclass AND attnum > 0 ORDER BY attnum`
    ).map((r) => r.name);

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    sql = connect(db.url, 4);
    for (const def of builtinDefinitions) registry.register(def);
    widgets({ spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } });
  });

  after(async () => {
    await sql.end();
    await db.drop();
  });

  it('creates a view per stored kind and k8s.changes; a second sync changes nothing and runs no DDL', async () => {
    const first = await syncViews(sql, specs());
    assert.deepEqual(
      first.created.sort(),
      specs()
        .map((s) => s.name)
        .sort(),
    );
    assert.ok(first.created.includes('widgets.example.com'));
    assert.ok(first.created.includes('configmaps'));
    const oids = await views();
    const second = await syncViews(sql, specs());
    assert.deepEqual(second, { created: [], replaced: [], dropped: [], skipped: [] });
    // a view made again would have a new oid
    assert.deepEqual(await views(), oids);
    assert.deepEqual(await columns('configmaps'), [
      'namespace',
      'name',
      'uid',
      'resource_version',
      'generation',
      'created_at',
      'deleted_at',
      'labels',
      'annotations',
      'owner_references',
      'object',
      'binary_data',
      'data',
      'immutable',
    ]);
  });

  it("replaces the view of a changed kind, drops a removed kind's, and leaves views pgkube did not make", async () => {
    await sql.unsafe(`CREATE VIEW k8s.mine AS SELECT 1 AS one`);
    widgets({ spec: { type: 'object' }, status: { type: 'object' } });
    const changed = await syncViews(sql, specs());
    assert.deepEqual(changed.replaced, ['widgets.example.com']);
    assert.deepEqual(changed.created, []);
    assert.deepEqual((await columns('widgets.example.com')).slice(-2), ['spec', 'status']);

    registry.unregister('example.com', 'widgets');
    const removed = await syncViews(sql, specs());
    assert.deepEqual(removed.dropped, ['widgets.example.com']);
    const left = await views();
    assert.equal(left.has('widgets.example.com'), false);
    assert.equal(left.has('mine'), true);
  });

  it("a user's view on a pgkube view that must be made again: that one is left as it is, the rest synced", async () => {
    widgets({ spec: { type: 'object' } });
    await syncViews(sql, specs());
    await sql.unsafe(`CREATE VIEW k8s.mine_widgets AS SELECT name, spec FROM k8s."widgets.example.com"`);
    // a field sorted before `spec`: the columns after `object` change place, so the view cannot be replaced
    widgets({ color: { type: 'string' }, spec: { type: 'object' } });
    registry.unregister('coordination.k8s.io', 'leases');
    const result = await syncViews(sql, specs());
    assert.equal(result.skipped.length, 1);
    assert.match(result.skipped[0], /^widgets\.example\.com: not replaced: .*depend/);
    assert.deepEqual(result.dropped, ['leases']);
    assert.deepEqual((await columns('widgets.example.com')).slice(-1), ['spec']);
    await sql.unsafe(`DROP VIEW k8s.mine_widgets`);
    const retried = await syncViews(sql, specs());
    assert.deepEqual(retried.replaced, ['widgets.example.com']);
    assert.deepEqual((await columns('widgets.example.com')).slice(-2), ['color', 'spec']);
  });

  it('replicas syncing at once: each view is made once, no sync fails', async () => {
    for (const view of (await views()).keys()) await sql.unsafe(`DROP VIEW k8s."${view}"`);
    const results = await Promise.all([1, 2, 3, 4].map(() => syncViews(sql, specs())));
    const made = results.flatMap((r) => r.created).sort();
    assert.deepEqual(
      made,
      specs()
        .map((s) => s.name)
        .sort(),
    );
  });

  it('pgkube_reader may read the views, and nothing of the tables or the schemas beside', async () => {
    const may = async (query: string) => (await sql.unsafe<{ ok: boolean }[]>(`SELECT ${query} AS ok`))[0].ok;
    assert.equal(await may(`has_schema_privilege('pgkube_reader', 'k8s', 'USAGE')`), true);
    assert.equal(await may(`has_schema_privilege('pgkube_reader', 'k8s', 'CREATE')`), false);
    assert.equal(await may(`has_schema_privilege('pgkube_reader', 'public', 'CREATE')`), false);
    for (const view of specs().map((s) => `k8s."${s.name}"`)) {
      assert.equal(await may(`has_table_privilege('pgkube_reader', '${view}', 'SELECT')`), true, view);
      for (const write of ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'])
        assert.equal(await may(`has_table_privilege('pgkube_reader', '${view}', '${write}')`), false, view);
    }
    for (const table of ['objects', 'changes', 'revision'])
      assert.equal(await may(`has_table_privilege('pgkube_reader', 'public.${table}', 'SELECT')`), false);
  });

  it('a second database on the cluster migrates with the role already there', async () => {
    const other = await testDatabase();
    try {
      await migrate(other.url);
      const o = connect(other.url, 1);
      try {
        const [{ n }] = await o<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = 'pgkube_reader'`;
        assert.equal(n, 1);
        const [{ ok }] = await o<
          { ok: boolean }[]
        >`SELECT has_schema_privilege('pgkube_reader', 'k8s', 'CREATE') AS ok`;
        assert.equal(ok, false);
      } finally {
        await o.end();
      }
    } finally {
      await other.drop();
    }
  });
});
