/**
 * bench/batch-pg: PostgreSQL CPU per create of the write-batch statement, by batch size, against a plain
 * multi-row JSONB insert of the same bodies. One writer connection sends batches back to back (through the
 * real WriteBatcher); a second connection LISTENs, as a replica's does. CPU comes from /proc/<pid>/schedstat of
 * every PostgreSQL process, so PostgreSQL must run on this host (the embedded one by default).
 *
 *   npm run build && node dist/bench/batch-pg.js [--sizes=1,4,8,16] [--batches=1500] [--rounds=2]
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { connect, migrate, PostgresStore } from '../modules/storage/index.js';
import type { KubeObject } from '../modules/api/index.js';
import { arg, benchDatabase, clusterCpuNs, cpuNs, grownNs, parentOf } from './support.js';

const SIZES = arg('sizes', '1,4,8,16').split(',').map(Number);
const BATCHES = Number(arg('batches', '1500'));
const ROUNDS = Number(arg('rounds', '2'));
/** rows already in the tables, so that index descents cost what they do in a used database */
const SEED = 10_000;

/** a stored ConfigMap as the server writes it: metadata, one managedFields entry, 1 KB of data */
function configMap(name: string, uid: string): KubeObject {
  const time = '2026-11-22T10:00:00Z';
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'default',
      uid,
      creationTimestamp: time,
      managedFields: [
        {
          manager: 'bench',
          operation: 'Update',
          apiVersion: 'v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { '.': {}, 'f:v': {} } },
        },
      ],
    },
    data: { v: 'x'.repeat(1000) },
  };
}

interface Subject {
  name: string;
  /** writes `size` new objects in one statement */
  batch(size: number): Promise<unknown>;
  sql: postgres.Sql;
  close(): Promise<void>;
}

async function database(admin: postgres.Sql, base: string, name: string): Promise<string> {
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const sql = postgres(url.toString(), { max: 1, onnotice: () => undefined });
  const body = configMap('seed', randomUUID());
  await sql`INSERT INTO objects VALUES ('/namespaces', '', 'default', ${randomUUID()}, 2)`;
  await sql`INSERT INTO changes (rv, resource, namespace, name, type, body)
    VALUES (2, '/namespaces', '', 'default', 1, '{"metadata":{}}')`;
  await sql`INSERT INTO objects SELECT '/configmaps', 'default', 'seed-' || g, gen_random_uuid(), g + 2
    FROM generate_series(1, ${SEED}) g`;
  await sql`INSERT INTO changes (rv, resource, namespace, name, type, body) SELECT g + 2, '/configmaps',
    'default', 'seed-' || g, 1, ${sql.json(body as never)} FROM generate_series(1, ${SEED}) g`;
  await sql`UPDATE revision SET rv = ${SEED + 2}`;
  await sql`CREATE TABLE bench_raw (id bigserial PRIMARY KEY, body jsonb NOT NULL)`;
  await sql.unsafe('VACUUM ANALYZE');
  await sql.end();
  return url.toString();
}

let serial = 0;

async function statementSubject(url: string): Promise<Subject> {
  const sql = connect(url, 1);
  const store = new PostgresStore(sql);
  const listener = connect(url, 1);
  const unsubscribe = await new PostgresStore(listener).subscribe(() => undefined);
  return {
    name: 'write-batch statement',
    sql,
    // submitted in one turn on distinct keys: the batcher sends them as one statement
    batch: (size) =>
      Promise.all(
        Array.from({ length: size }, () => {
          const name = `cm-${++serial}`;
          const key = { resource: '/configmaps', namespace: 'default', name };
          return store.create(key, configMap(name, randomUUID()), {
            requires: { resource: '/namespaces', namespace: '', name: 'default' },
          });
        }),
      ),
    close: async () => {
      await unsubscribe();
      await Promise.all([sql.end(), listener.end()]);
    },
  };
}

async function plainInsertSubject(url: string): Promise<Subject> {
  const sql = connect(url, 1);
  return {
    name: 'plain multi-row JSONB insert',
    sql,
    batch: (size) => {
      const bodies = Array.from({ length: size }, () => configMap(`cm-${++serial}`, randomUUID()));
      return sql`INSERT INTO bench_raw (body) SELECT jsonb_array_elements(${sql.json(bodies as never)})`;
    },
    close: () => sql.end(),
  };
}

async function measure(subject: Subject, size: number) {
  for (let i = 0; i < 50; i++) await subject.batch(size);
  const [{ pid, lsn }] = await subject.sql`SELECT pg_backend_pid() AS pid, pg_current_wal_lsn()::text AS lsn`;
  const postmaster = parentOf(pid);
  const before = clusterCpuNs(postmaster);
  const backendBefore = cpuNs(pid);
  for (let i = 0; i < BATCHES; i++) await subject.batch(size);
  const backend = cpuNs(pid) - backendBefore;
  const all = grownNs(before, clusterCpuNs(postmaster));
  const [{ wal }] =
    await subject.sql`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ${lsn}::pg_lsn)::float8 AS wal`;
  const rows = BATCHES * size;
  return { all: all / 1e3 / rows, backend: backend / 1e3 / rows, wal: wal / rows };
}

async function main() {
  const db = await benchDatabase('postgres');
  const url = db.url;
  const admin = postgres(url, { max: 1, onnotice: () => undefined });
  const subjects = [
    await statementSubject(await database(admin, url, 'bench_batch_statement')),
    await plainInsertSubject(await database(admin, url, 'bench_batch_plain')),
  ];
  console.log(
    `PostgreSQL CPU per row (all its processes / the writing backend), WAL per row; ${BATCHES} batches`,
  );
  for (const size of SIZES) {
    const runs = subjects.map(() => [] as Awaited<ReturnType<typeof measure>>[]);
    // the subjects take turns, so that a busy spell of a shared machine hits both
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, subject] of subjects.entries()) runs[i].push(await measure(subject, size));
    }
    for (const [i, subject] of subjects.entries()) {
      const show = (k: 'all' | 'backend' | 'wal') => runs[i].map((x) => x[k].toFixed(0)).join(' / ');
      console.log(
        `batches of ${size}, ${subject.name}: ${show('all')} µs (backend ${show('backend')} µs), WAL ${show('wal')} B`,
      );
    }
  }
  await Promise.all(subjects.map((s) => s.close()));
  for (const name of ['bench_batch_statement', 'bench_batch_plain']) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  await admin.end();
  await db.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
