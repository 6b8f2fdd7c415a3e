/** Connecting to PostgreSQL and bringing its schema up to date. */
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator';
import { adoptDatabase, type Adoption } from './database-identity.js';

const migrationsFolder = fileURLToPath(new URL('../../../migrations', import.meta.url));

/** Any fixed number: replicas starting together take turns migrating. */
const MIGRATION_LOCK = 7_361_004;

/** a connection attempt that has not succeeded after this long fails (postgres.js's default is 30 s) */
const CONNECT_TIMEOUT_S = 2;

/**
 * After a connection fails, postgres.js waits before the next attempt: by default 3^n/100 s (up to 20 s), so a
 * database back after a few seconds' outage stayed unused for up to 10 s. The circuit (circuit.ts) keeps calls
 * off a database that is down; reconnecting soon is what makes recovery fast.
 */
function backoff(retries: number): number {
  return Math.min(0.02 * 2 ** retries, 0.2);
}

/** `settings`: run-time parameters of every connection (e.g. the audit backend's synchronous_commit=off) */
export function connect(url: string, max = 10, settings: Record<string, string> = {}): postgres.Sql {
  return postgres(url, {
    max,
    connect_timeout: CONNECT_TIMEOUT_S,
    backoff,
    // no array types are used; and postgres.js's lookup of them on each new connection is a promise nobody
    // handles: a connection lost during it (a database going down) ended the process (unhandled rejection)
    fetch_types: false,
    onnotice: () => undefined,
    connection: { application_name: 'pgkube', ...settings },
  });
}

/**
 * Applies pending migrations; replicas starting together take turns (session advisory lock). Then notices a
 * restored database (database-identity.ts): every pgkube that starts on a database, `serve` or `migrate`,
 * passes here before it reads or writes.
 */
export async function migrate(url: string): Promise<Adoption> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    await drizzleMigrate(drizzle(sql), { migrationsFolder });
    return await adoptDatabase(sql);
  } finally {
    await sql.end();
  }
}
