/**
 * bench/sql-views: label and key queries through the k8s.* views (modules/sql) against the same queries on a
 * bare table holding the same ConfigMaps (namespace, name, labels, body; GIN on labels), with EXPLAIN ANALYZE
 * execution times (median of --runs, warm). Also the same label query through a security_barrier copy of the
 * view (why the views are not barrier views), and what the labels index costs the change log's inserts.
 * Wants an empty database (the default: a fresh embedded PostgreSQL). Rows are written in the server's stored
 * format straight into `objects` and `changes` (a read benchmark: the API would only take longer to load).
 *
 *   npm run build && node dist/bench/sql-views.js [--objects=100000] [--runs=15]
 */
import postgres from 'postgres';
import { builtinDefinitions } from '../modules/kinds/index.js';
import { Registry } from '../modules/registry/index.js';
import { syncViews, viewSpecs } from '../modules/sql/index.js';
import { connect, migrate } from '../modules/storage/index.js';
import { arg, benchDatabase, machineCpuMs } from './support.js';

const OBJECTS = Number(arg('objects', '100000'));
const RUNS = Number(arg('runs', '15'));
/** every 20th object is a Secret: the views must skip them */
const SECRET_EVERY = 20;
const TEAMS = 1000;

/** the change-log rows of OBJECTS objects, as the server stores them (no resourceVersion in the body) */
const rowsSql = (from: number) => `
  SELECT ${from} + i AS rv,
    CASE WHEN i % ${SECRET_EVERY} = 0 THEN '/secrets' ELSE '/configmaps' END AS resource,
    'ns' || (i % 100) AS namespace, 'o' || i AS name, 1::smallint AS type,
    jsonb_build_object(
      'apiVersion', 'v1',
      'kind', CASE WHEN i % ${SECRET_EVERY} = 0 THEN 'Secret' ELSE 'ConfigMap' END,
      'metadata', jsonb_build_object('name', 'o' || i, 'namespace', 'ns' || (i % 100),
        'uid', md5(i::text)::uuid, 'creationTimestamp', '2026-11-28T10:00:00Z',
        'labels', jsonb_build_object('team', 't' || (i % ${TEAMS}), 'app', 'a' || (i % 7))),
      'data', jsonb_build_object('v', repeat('x', 500))) AS body
  FROM generate_series(1, ${OBJECTS}) i`;

async function timed(what: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await what();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function executionMs(sql: postgres.Sql, query: string): Promise<{ median: number; plan: string }> {
  const times: number[] = [];
  let plan = '';
  for (let i = 0; i < RUNS; i++) {
    const rows = await sql.unsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, BUFFERS OFF) ${query}`);
    plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    times.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)![1]));
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], plan };
}

async function main(): Promise<void> {
  const { url, stop } = await benchDatabase('pgkube_bench_sql');
  const sql = connect(url, 2);
  try {
    const cpuBefore = machineCpuMs();
    const wallBefore = Date.now();
    // a --database-url with a pgkube's objects in it fails on the first insert: nothing of it is dropped
    await migrate(url);

    // what the labels index costs inserts: the same rows into the change log and into a copy without it
    await sql.unsafe(
      `CREATE TABLE changes_without_gin (LIKE changes INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`,
    );
    await sql.unsafe(`ALTER TABLE changes_without_gin ADD PRIMARY KEY (rv)`);
    await sql.unsafe(`CREATE INDEX ON changes_without_gin USING brin (at)`);
    const withoutGin = await timed(() =>
      sql.unsafe(`INSERT INTO changes_without_gin (rv, resource, namespace, name, type, body) ${rowsSql(0)}`),
    );
    const withGin = await timed(() =>
      sql.unsafe(`INSERT INTO changes (rv, resource, namespace, name, type, body) ${rowsSql(1)}`),
    );
    await sql.unsafe(`INSERT INTO objects SELECT resource, namespace, name, (body->'metadata'->>'uid')::uuid, rv
      FROM changes`);
    await sql.unsafe(`UPDATE revision SET rv = ${OBJECTS + 1}`);

    await sql.unsafe(`CREATE TABLE bare_configmaps (namespace text, name text, labels jsonb, body jsonb,
      PRIMARY KEY (namespace, name))`);
    await sql.unsafe(`CREATE INDEX ON bare_configmaps USING gin (labels jsonb_path_ops)`);
    await sql.unsafe(`INSERT INTO bare_configmaps SELECT namespace, name, body->'metadata'->'labels', body
      FROM changes WHERE resource = '/configmaps'`);

    const registry = new Registry();
    for (const def of builtinDefinitions) registry.register(def);
    const specs = viewSpecs(registry.stored, {
      exposeSecretData: false,
      base: 'public',
      retentionMs: 300_000,
    });
    await syncViews(sql, specs);
    const configmaps = specs.find((s) => s.name === 'configmaps')!;
    await sql.unsafe(`CREATE VIEW k8s.configmaps_barrier WITH (security_barrier) AS ${configmaps.select}`);
    await sql.unsafe('VACUUM ANALYZE');

    const label = `'{"team": "t5"}'`;
    const cases: [string, string, string][] = [
      [
        'label query (100 rows), name + object',
        `SELECT name, object FROM k8s.configmaps WHERE labels @> ${label}`,
        `SELECT name, body FROM bare_configmaps WHERE labels @> ${label}`,
      ],
      [
        'get by namespace/name, object',
        `SELECT object FROM k8s.configmaps WHERE namespace = 'ns5' AND name = 'o5'`,
        `SELECT body FROM bare_configmaps WHERE namespace = 'ns5' AND name = 'o5'`,
      ],
      [
        'objects per namespace (count, all rows)',
        `SELECT namespace, count(*) FROM k8s.configmaps GROUP BY namespace`,
        `SELECT namespace, count(*) FROM bare_configmaps GROUP BY namespace`,
      ],
    ];
    const lines: string[] = [];
    let viewPlan = '';
    for (const [name, viewQuery, bareQuery] of cases) {
      const view = await executionMs(sql, viewQuery);
      const bare = await executionMs(sql, bareQuery);
      if (!viewPlan) viewPlan = view.plan;
      lines.push(
        `| ${name} | ${view.median.toFixed(3)} ms | ${bare.median.toFixed(3)} ms | ${(view.median / bare.median).toFixed(2)}× |`,
      );
    }
    const barrier = await executionMs(
      sql,
      `SELECT name, object FROM k8s.configmaps_barrier WHERE labels @> ${label}`,
    );
    const wall = Date.now() - wallBefore;
    const busy = (machineCpuMs() - cpuBefore) / wall;

    console.log(
      `\n${OBJECTS} objects (${OBJECTS / SECRET_EVERY} of them Secrets), median of ${RUNS} runs:\n`,
    );
    console.log('| query | through k8s.configmaps | bare table | ratio |');
    console.log('| --- | --- | --- | --- |');
    for (const line of lines) console.log(line);
    console.log(
      `\nsame label query through a security_barrier view: ${barrier.median.toFixed(3)} ms (the index unused)`,
    );
    console.log(
      `insert of ${OBJECTS} change-log rows in one statement: ${withGin.toFixed(0)} ms with the labels index, ` +
        `${withoutGin.toFixed(0)} ms without (${(withGin / withoutGin).toFixed(2)}×)`,
    );
    console.log(`machine busy: ${busy.toFixed(2)} cores on average during the run (2 cores)\n`);
    console.log(`EXPLAIN ANALYZE of the label query through the view:\n${viewPlan}`);
  } finally {
    await sql.end();
    await stop();
  }
}

await main();
