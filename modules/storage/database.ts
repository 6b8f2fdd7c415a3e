/** Connecting to PostgreSQL and bringing its schema up to date. */
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator';

const migrationsFolder = fileURLToPath(new URL('../../../migrations', import.meta.url));

/** Any fixed number: replicas starting together take turns migrating. */
const MIGRATION_LOCK = 7_361_004;

export function connect(url: string, max = 10): postgres.Sql {
  return postgres(url, {
    max,
    onnotice: () => undefined,
    connection: { application_name: 'pgkube' },
  });
}

/** Applies pending migrations; replicas starting together take turns (session advisory lock). */
export async function migrate(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    await drizzleMigrate(drizzle(sql), { migrationsFolder });
  } finally {
    await sql.end();
  }
}
