import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type postgres from 'postgres';
import { testDatabase, type TestDatabase } from '../../test/support/database.js';
import { connect, migrate } from './database.js';
import { BATCH_SQL } from './write-batch.js';

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
  // O(objects) once the table grew (seen as creates/s falling by half per few thousand objects).
  it('reaches objects and namespaces by key in the generic plan made on empty tables', async () => {
    await sql.begin(async (tx) => {
      await tx.unsafe('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.unsafe(
        `PREPARE batch_plan(jsonb, int, text, bool) AS ${BATCH_SQL.replace('$1::jsonb', '$1').replaceAll('$2::int', '$2').replace('$4::bool', '$4')}`,
      );
      const ops = JSON.stringify([
        {
          i: 1,
          op: 'c',
          res: '/configmaps',
          ns: 'default',
          name: 'a',
          uid: crypto.randomUUID(),
          ans: 'default',
          body: {},
        },
      ]);
      const rows = await tx.unsafe(`EXPLAIN (COSTS OFF) EXECUTE batch_plan('${ops}', 1, 'r', true)`);
      const plan = rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      assert.doesNotMatch(plan, /Seq Scan on objects/, plan);
      assert.doesNotMatch(plan, /Seq Scan on changes/, plan);
      assert.match(plan, /Index Scan using objects_resource_namespace_name_pk on objects t\b/, plan);
      await tx.unsafe('DEALLOCATE batch_plan');
    });
  });
});
