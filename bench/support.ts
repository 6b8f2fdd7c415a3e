/** What every benchmark needs: its `--name=value` flags, and a PostgreSQL to run on. */
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../modules/storage/index.js';

/** The value of `--name=value` on the command line (values may contain `=`). */
export function arg(name: string, fallback: string): string {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
}

/**
 * `--database-url` (or DATABASE_URL) when given; otherwise a fresh embedded PostgreSQL with `database`, stopped
 * by `stop`.
 */
export async function benchDatabase(database: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const url = arg('database-url', process.env.DATABASE_URL ?? '');
  if (url) return { url, stop: async () => undefined };
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-bench-pg-'));
  await chmod(dir, 0o755); // PostgreSQL runs as its own OS user when we are root
  const embedded = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), database });
  return { url: embedded.url, stop: () => embedded.stop() };
}
