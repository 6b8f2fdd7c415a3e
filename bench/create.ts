/**
 * bench/create: ConfigMap (1 KB) creates/s through HTTPS at 8 concurrent keep-alive clients, against the
 * raw baseline measured in the same run on the same database: single-row JSONB INSERT transactions/s at 8
 * clients (pgbench -c 8 when installed; otherwise the same loop over postgres.js, and it says so).
 *
 *   npm run build && node dist/bench/create.js [--seconds=10] [--database-url=…]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { connect as tlsConnect } from 'node:tls';
import postgres from 'postgres';
import { startServer } from '../test/support/server.js';
import { arg, benchDatabase } from './support.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(arg('seconds', '10'));
const payload = (i: number) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `cm-${i}` },
  data: { v: 'x'.repeat(1000) },
});

async function pgbenchBaseline(url: string): Promise<{ tps: number; how: string }> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  await sql`CREATE TABLE IF NOT EXISTS bench_raw (id bigserial PRIMARY KEY, body jsonb NOT NULL)`;
  const body = JSON.stringify(payload(0));
  const haveBench = spawnSync('pgbench', ['--version']).status === 0;
  if (haveBench) {
    await sql.end();
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-bench-'));
    const script = path.join(dir, 'insert.sql');
    await writeFile(script, `INSERT INTO bench_raw (body) VALUES ('${body}'::jsonb);\n`);
    const u = new URL(url);
    const r = spawnSync(
      'pgbench',
      [
        '-n',
        '-c',
        String(CLIENTS),
        '-j',
        '2',
        '-T',
        String(SECONDS),
        '-f',
        script,
        '-h',
        u.hostname,
        '-p',
        u.port,
        '-U',
        decodeURIComponent(u.username),
        u.pathname.slice(1),
      ],
      { env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password) }, encoding: 'utf8' },
    );
    const m = /tps = ([\d.]+)/.exec(r.stdout);
    if (!m) throw new Error(`pgbench failed: ${r.stderr}`);
    return { tps: Number(m[1]), how: `pgbench -c ${CLIENTS} -j 2, one-line INSERT script` };
  }
  // fallback: the same single-row insert from 8 postgres.js connections
  await sql.end();
  const pool = postgres(url, { max: CLIENTS, onnotice: () => undefined });
  let done = 0;
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        await pool`INSERT INTO bench_raw (body) VALUES (${body}::jsonb)`;
        done++;
      }
    }),
  );
  await pool.end();
  return { tps: done / SECONDS, how: `postgres.js loop, ${CLIENTS} connections (pgbench not installed)` };
}

/**
 * One closed-loop keep-alive HTTPS/1.1 connection: send a POST, read the whole answer, repeat. Raw TLS with
 * prebuilt request bytes keeps the load generator cheap: on 2 cores its CPU is taken from the server's.
 */
function connection(url: URL, ca: string, request: (i: number) => Buffer, until: number, next: () => number) {
  return new Promise<{ ok: number; errors: number }>((resolve, reject) => {
    const socket = tlsConnect({ host: url.hostname, port: Number(url.port), ca, servername: 'localhost' });
    let ok = 0;
    let errors = 0;
    let buffer: Buffer = Buffer.alloc(0);
    const send = () => {
      if (Date.now() >= until) {
        socket.end();
        resolve({ ok, errors });
        return;
      }
      socket.write(request(next()));
    };
    socket.on('secureConnect', send);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        const headerEnd = buffer.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const head = buffer.subarray(0, headerEnd).toString('latin1');
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < headerEnd + 4 + length) return;
        if (head.startsWith('HTTP/1.1 201')) ok++;
        else errors++;
        buffer = buffer.subarray(headerEnd + 4 + length);
        send();
      }
    });
  });
}

/** The load: CLIENTS closed-loop keep-alive connections POSTing 1 KB ConfigMaps for SECONDS. */
async function load(baseUrl: string, token: string, ca: string): Promise<{ rate: number; errors: number }> {
  const url = new URL(baseUrl);
  const path = '/api/v1/namespaces/default/configmaps';
  const request = (i: number) => {
    const body = JSON.stringify(payload(i));
    return Buffer.from(
      `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  };
  let n = Number(process.env.BENCH_OFFSET ?? 0);
  const next = () => n++;
  // warm up connections and JIT
  await Promise.all(
    Array.from({ length: CLIENTS }, () => connection(url, ca, request, Date.now() + 1000, next)),
  );
  const started = Date.now();
  const results = await Promise.all(
    Array.from({ length: CLIENTS }, () => connection(url, ca, request, started + SECONDS * 1000, next)),
  );
  const seconds = (Date.now() - started) / 1000;
  const ok = results.reduce((a, r) => a + r.ok, 0);
  return { rate: ok / seconds, errors: results.reduce((a, r) => a + r.errors, 0) };
}

/** Bare Fastify over the same TLS: answers the same POST with the body, no storage (the HTTP ceiling). */
async function bareFastify(tls: {
  cert: string;
  key: string;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ https: tls });
  app.post('/api/v1/namespaces/default/configmaps', async (req, reply) => {
    reply.code(201);
    return req.body;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return { url: `https://127.0.0.1:${port}`, close: () => app.close() };
}

/** Runs `load` in its own process, as a real client would be. */
async function loadFrom(url: string, token: string, ca: string): Promise<{ rate: number; errors: number }> {
  const child = spawn(
    process.execPath,
    [new URL(import.meta.url).pathname, '--client', url, token, `--seconds=${SECONDS}`],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  child.stdin.end(ca);
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  await new Promise((r) => child.on('exit', r));
  return JSON.parse(out);
}

/**
 * The baseline leaves ~250 MB of WAL and dirty pages behind; a checkpoint now, rather than one that starts in
 * the middle of the next phase, lets each phase begin from the same clean state.
 */
async function settle(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await sql`DROP TABLE IF EXISTS bench_raw`;
    await sql`CHECKPOINT`;
  } catch (error) {
    console.error(`no checkpoint between the phases: ${(error as Error).message}`);
  } finally {
    await sql.end();
  }
}

async function main() {
  const db = await benchDatabase('bench');
  const url = db.url;
  const raw = await pgbenchBaseline(url);
  await settle(url);
  const server = await startServer({ databaseUrl: url });
  const result = await loadFrom(server.url, server.token, server.ca);
  const pki = path.join(server.dataDir, 'pki');
  await server.stop();
  const bare = await bareFastify({
    cert: await readFile(path.join(pki, 'apiserver.crt'), 'utf8'),
    key: await readFile(path.join(pki, 'apiserver.key'), 'utf8'),
  });
  const ceiling = await loadFrom(bare.url, 'none', server.ca);
  await bare.close();
  await db.stop();
  console.log(`raw PostgreSQL single-row JSONB inserts/s (${raw.how}): ${raw.tps.toFixed(0)}`);
  console.log(`bare Fastify HTTPS echo of the same POST, same client: ${ceiling.rate.toFixed(0)}/s`);
  console.log(
    `pgkube ConfigMap creates/s over HTTPS, ${CLIENTS} keep-alive clients: ${result.rate.toFixed(0)} (errors: ${result.errors})`,
  );
  console.log(`ratio pgkube / raw PostgreSQL: ${(result.rate / raw.tps).toFixed(2)} (target >= 0.5)`);
  console.log(`ratio pgkube / bare Fastify: ${(result.rate / ceiling.rate).toFixed(2)}`);
}

if (process.argv[2] === '--client') {
  const chunks: Buffer[] = [];
  process.stdin.on('data', (c) => chunks.push(c));
  process.stdin.on('end', async () => {
    const r = await load(process.argv[3], process.argv[4], Buffer.concat(chunks).toString());
    process.stdout.write(JSON.stringify(r));
  });
} else {
  await main();
}
