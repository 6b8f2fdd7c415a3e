/**
 * A fresh database for one test file, on the cluster scripts/test.mjs prepared (PGKUBE_TEST_POSTGRES_URL:
 * DATABASE_URL or an embedded PostgreSQL), or on an embedded PostgreSQL of its own when a file runs alone.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres } from '../../modules/storage/index.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

let cluster: Promise<{ urlFor(db: string): string; stop?: () => Promise<void> }> | undefined;
/** databases of this process not yet dropped: a cluster of its own stops with the last one */
let open = 0;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function openCluster() {
  const base = process.env.PGKUBE_TEST_POSTGRES_URL;
  if (base) return { urlFor: (db: string) => withDatabase(base, db) };
  const running = await startEmbeddedPostgres({
    dir: path.resolve('.test-data', `postgres-${process.pid}`),
    database: 'postgres',
    fsync: false,
  });
  return running;
}

export async function testDatabase(): Promise<TestDatabase> {
  cluster ??= openCluster();
  const c = await cluster;
  const name = `t_${randomBytes(6).toString('hex')}`;
  open++;
  const admin = postgres(c.urlFor('postgres'), { max: 1, onnotice: () => undefined });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: c.urlFor(name),
    async drop() {
      const a = postgres(c.urlFor('postgres'), { max: 1, onnotice: () => undefined });
      await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
      if (--open === 0 && c.stop) {
        cluster = undefined;
        await c.stop();
      }
    },
  };
}
