/** The schema as an older release left it: the migrations before one, applied to a test database. */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator';
import type postgres from 'postgres';

const migrations = fileURLToPath(new URL('../../../migrations', import.meta.url));

/** Applies every migration whose tag sorts before `tag` (e.g. `0009`) through `sql`. */
export async function migrateBefore(sql: postgres.Sql, tag: string): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-migrations-'));
  try {
    await cp(migrations, dir, { recursive: true });
    const journalFile = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8'));
    journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < tag);
    await writeFile(journalFile, JSON.stringify(journal));
    await drizzleMigrate(drizzle(sql), { migrationsFolder: dir });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
