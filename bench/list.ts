/**
 * bench/list: 100,000 ConfigMaps in one namespace, listed through HTTPS in pages of 500 (limit/continue),
 * against a raw keyset SELECT walk over the same rows on the same database in the same run. Reports the
 * first and last page's cost, the whole walk, and the server's RSS with those objects cached.
 *
 *   npm run build && node dist/bench/list.js [--objects=100000] [--database-url=…]
 */
import { Agent, request } from 'node:https';
import postgres from 'postgres';
import { migrate } from '../modules/storage/index.js';
import { startServer, type TestServer } from '../test/support/server.js';
import { arg, benchDatabase, rssMb } from './support.js';

const OBJECTS = Number(arg('objects', '100000'));
const PAGE = 500;
const NS = 'bench';

async function seed(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  // rows as the server writes them: the key and revision in objects, the body (without resourceVersion) in the
  // change-log row of that revision; one revision per object, written a day ago (not history any more)
  await sql`
    WITH c AS (UPDATE revision SET rv = rv + ${OBJECTS + 1} WHERE id = 1 RETURNING rv - ${OBJECTS + 1} AS base),
    o AS (INSERT INTO objects (resource, namespace, name, uid, rv)
      SELECT '/namespaces', '', ${NS}::text, gen_random_uuid(), c.base + 1 FROM c RETURNING rv)
    INSERT INTO changes (rv, resource, namespace, name, type, at, body)
    SELECT o.rv, '/namespaces', '', ${NS}::text, 1, now() - interval '1 day', jsonb_build_object(
      'apiVersion', 'v1', 'kind', 'Namespace',
      'metadata', jsonb_build_object('name', ${NS}::text, 'uid', gen_random_uuid(), 'creationTimestamp', '2026-01-01T00:00:00Z'),
      'spec', jsonb_build_object('finalizers', jsonb_build_array('kubernetes')), 'status', jsonb_build_object('phase', 'Active'))
    FROM o`.catch(() => undefined);
  await sql`
    WITH c AS (SELECT rv - ${OBJECTS} AS base FROM revision WHERE id = 1),
    o AS (INSERT INTO objects (resource, namespace, name, uid, rv)
      SELECT '/configmaps', ${NS}::text, 'cm-' || lpad(i::text, 6, '0'), gen_random_uuid(), c.base + i
      FROM generate_series(1, ${OBJECTS}) AS i, c)
    INSERT INTO changes (rv, resource, namespace, name, type, at, body)
    SELECT c.base + i, '/configmaps', ${NS}::text, 'cm-' || lpad(i::text, 6, '0'), 1, now() - interval '1 day',
      jsonb_build_object('apiVersion', 'v1', 'kind', 'ConfigMap',
        'metadata', jsonb_build_object('name', 'cm-' || lpad(i::text, 6, '0'), 'namespace', ${NS}::text,
          'uid', gen_random_uuid(), 'creationTimestamp', '2026-01-01T00:00:00Z', 'labels', jsonb_build_object('app', 'bench')),
        'data', jsonb_build_object('key', repeat('x', 200)))
    FROM generate_series(1, ${OBJECTS}) AS i, c`;
  // now, not by autovacuum in the middle of the walks
  await sql`VACUUM ANALYZE`;
  await sql.end();
}

async function rawWalk(url: string): Promise<{ ms: number; rows: number }> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  const started = performance.now();
  let last = '';
  let rows = 0;
  for (;;) {
    const page = await sql`
      SELECT o.name, o.rv, b.body::text AS body FROM objects o JOIN changes b ON b.rv = o.rv
      WHERE o.resource = '/configmaps' AND o.namespace = ${NS} AND o.name > ${last}
      ORDER BY o.name LIMIT ${PAGE}`;
    rows += page.length;
    if (page.length < PAGE) break;
    last = page[page.length - 1].name;
  }
  const ms = performance.now() - started;
  await sql.end();
  return { ms, rows };
}

function get(s: TestServer, agent: Agent, p: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(p, s.url),
      { agent, headers: { authorization: `Bearer ${s.token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function serverWalk(s: TestServer): Promise<{ ms: number; rows: number; pageMs: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: s.ca });
  const base = `/api/v1/namespaces/${NS}/configmaps?limit=${PAGE}`;
  await get(s, agent, `${base}`); // warm up
  const pageMs: number[] = [];
  let rows = 0;
  let token = '';
  const started = performance.now();
  for (;;) {
    const t = performance.now();
    const page = await get(s, agent, token ? `${base}&continue=${encodeURIComponent(token)}` : base);
    pageMs.push(performance.now() - t);
    rows += page.items.length;
    token = page.metadata.continue;
    if (!token) break;
  }
  const ms = performance.now() - started;
  agent.destroy();
  return { ms, rows, pageMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function main() {
  const db = await benchDatabase('bench');
  const url = db.url;
  await migrate(url);
  const t0 = performance.now();
  await seed(url);
  console.log(
    `seeded ${OBJECTS} ConfigMaps (200-byte data) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const s = await startServer({ databaseUrl: url });
  const raw = await rawWalk(url);
  await serverWalk(s); // the first walk warms the JIT and the connection
  const walk = await serverWalk(s);
  const raw2 = await rawWalk(url);
  const rss = await rssMb(s.pid);
  await s.stop();
  await db.stop();
  const rawMs = Math.min(raw.ms, raw2.ms);
  const first = median(walk.pageMs.slice(0, 5));
  const lastPages = median(walk.pageMs.slice(-6, -1));
  console.log(
    `raw keyset SELECT walk (${raw.rows} rows, pages of ${PAGE}, body as text): ${rawMs.toFixed(0)} ms`,
  );
  console.log(
    `pgkube list walk over HTTPS (${walk.rows} items, ${walk.pageMs.length} pages): ${walk.ms.toFixed(0)} ms`,
  );
  console.log(`ratio pgkube / raw: ${(walk.ms / rawMs).toFixed(2)} (target <= 3)`);
  console.log(
    `first pages: ${first.toFixed(1)} ms, last full pages: ${lastPages.toFixed(1)} ms (ratio ${(lastPages / first).toFixed(2)}, target 0.7-1.3)`,
  );
  console.log(`server RSS with the objects cached: ${rss.toFixed(0)} MB (target < 600)`);
}

await main();
