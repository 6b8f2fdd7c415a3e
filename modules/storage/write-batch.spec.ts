import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { connect, migrate } from './database.js';
import { batchSql, type BatchKinds } from './batch-sql.js';

describe('write batch statement', () => {
  let db: TestDatabase;
  let sql: postgres.Sql;

  before(async () => {
    db = await testDatabase();
    await migrate(db.url);
    sql = connect(db.url, 1);
  });

  after(async () => {
    await sql.end();
    await db.drop();
  });

  // A cached plan made while the tables were small must not scan them whole: that made every write cost
  // O(objects) once the table grew (seen as creates/s falling by half per few thousand objects). A hashed
  // subplan over objects is such a scan too (of every namespace, when checking one). An index scan on part of
  // the key would be one too, over every object sharing that part (a required namespace's whole resource).
  const mixes: BatchKinds[] = [];
  for (let id = 1; id < 8; id++) mixes.push({ create: !!(id & 1), update: !!(id & 2), delete: !!(id & 4) });
  for (const kinds of mixes) {
    const name = Object.entries(kinds)
      .filter(([, present]) => present)
      .map(([kind]) => kind)
      .join('+');
    it(`reaches objects and required objects by key in the generic plan made on empty tables (${name})`, async () => {
      const plan = await genericPlan(sql, kinds);
      assert.doesNotMatch(plan, /Seq Scan on (objects|changes)/, plan);
      assert.doesNotMatch(plan, /hashed SubPlan/, plan);
      assert.match(plan, byFullKey('t', 'res', 'ns', 'name'), plan);
      if (kinds.create) {
        // the required object, and its body (for deletionTimestamp) by the change log's primary key
        assert.match(plan, byFullKey('req', 'req_res', 'req_ns', 'req_name'), plan);
        assert.match(
          plan,
          /Index Scan using changes_pkey on changes rb\b.*\n\s*Index Cond: \(rv = req\.rv\)/,
          plan,
        );
      }
    });
  }
});

/** an index scan of `objects` (as `alias`) on the primary key, every column bound to the op's own fields */
function byFullKey(alias: string, res: string, ns: string, name: string): RegExp {
  const op = (field: string) => `o(?:_\\d+)?\\.${field}`;
  return new RegExp(
    `Index Scan using objects_resource_namespace_name_pk on objects ${alias}\\b.*\\n\\s*` +
      `Index Cond: \\(\\(resource = ${op(res)}\\) AND \\(namespace = ${op(ns)}\\) AND \\(name = ${op(name)}\\)\\)`,
  );
}

async function genericPlan(sql: postgres.Sql, kinds: BatchKinds): Promise<string> {
  const ops = JSON.stringify([
    {
      i: 1,
      op: 'c',
      res: '/configmaps',
      ns: 'default',
      name: 'a',
      uid: crypto.randomUUID(),
      req_res: '/namespaces',
      req_ns: '',
      req_name: 'default',
      body: {},
    },
    { i: 2, op: 'u', res: '/configmaps', ns: 'default', name: 'b', exp: 5, body: {} },
    { i: 3, op: 'd', res: '/configmaps', ns: 'default', name: 'c', exp: 5 },
  ]);
  return sql.begin(async (tx) => {
    await tx.unsafe('SET LOCAL plan_cache_mode = force_generic_plan');
    const text = batchSql(kinds)
      .replace('$1::jsonb', '$1')
      .replaceAll('$2::int', '$2')
      .replace('$4::bool', '$4');
    await tx.unsafe(`PREPARE batch_plan(jsonb, int, text, bool) AS ${text}`);
    const rows = await tx.unsafe(`EXPLAIN (COSTS OFF) EXECUTE batch_plan('${ops}', 3, 'r', true)`);
    await tx.unsafe('DEALLOCATE batch_plan');
    return rows.map((r) => r['QUERY PLAN'] as string).join('\n');
  });
}
