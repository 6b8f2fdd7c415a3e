/**
 * bench/create: ConfigMap (1 KB) creates/s through HTTPS at 8 concurrent keep-alive clients, against the
 * raw baseline measured in the same run on the same database: single-row JSONB INSERT transactions/s at 8
 * clients (pgbench -c 8 when installed; otherwise the same loop over postgres.js, and it says so).
 *
 *   npm run build && node dist/bench/create.js [--seconds=10] [--database-url=…] [--auth=all]
 *     [--credential=admin|serviceaccount|certificate]
 *
 * `--auth=all` configures every authentication method beside the admin token (client CA, authenticating
 * proxy, service-account keys, bootstrap tokens, a token webhook, an AuthenticationConfiguration);
 * `--credential` is what the load generator presents: the admin token (a token-file entry), a service
 * account's TokenRequest JWT, or a client certificate signed by the data dir's CA.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { connect as tlsConnect } from 'node:tls';
import postgres from 'postgres';
import { clientCertificate, dataDirCa, testCa } from '../test/support/certificates.js';
import { startServer, type TestServer } from '../test/support/server.js';
import { startTokenWebhook, type TokenWebhook } from '../test/support/token-webhook.js';
import { arg, benchDatabase, clusterCpuNs, cpuMs, grownNs, machineCpuMs, parentOf } from './support.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(arg('seconds', '10'));
const AUTH = arg('auth', 'token');
const CREDENTIAL = arg('credential', 'admin');
const payload = (i: number) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `cm-${i}` },
  data: { v: 'x'.repeat(1000) },
});

export async function pgbenchBaseline(url: string): Promise<{ tps: number; how: string }> {
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
function connection(
  url: URL,
  tls: ClientTls,
  request: (i: number) => Buffer,
  until: number,
  next: () => number,
) {
  return new Promise<{ ok: number; errors: number }>((resolve, reject) => {
    const socket = tlsConnect({
      host: url.hostname,
      port: Number(url.port),
      servername: 'localhost',
      ...tls,
    });
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

/** What the load generator's TLS connections trust and present (a client certificate, or none). */
export interface ClientTls {
  ca: string;
  cert?: string;
  key?: string;
}

export interface LoadResult {
  rate: number;
  errors: number;
  /** requests answered, warm-up included (what the CPU figures are divided by) */
  answered: number;
}

/** What the load creates: objects like `object`, each named `<its name>-<i>`, POSTed to `path`. */
export interface LoadTarget {
  path: string;
  object: { metadata: { name: string } } & Record<string, unknown>;
}

export const configMapTarget: LoadTarget = {
  path: '/api/v1/namespaces/default/configmaps',
  object: { ...payload(0), metadata: { name: 'cm' } },
};

/** The load: CLIENTS closed-loop keep-alive connections POSTing 1 KB objects (ConfigMaps) for SECONDS. */
async function load(baseUrl: string, token: string, tls: ClientTls, target: LoadTarget): Promise<LoadResult> {
  const url = new URL(baseUrl);
  const path = target.path;
  const authorization = token ? `Authorization: Bearer ${token}\r\n` : '';
  const prefix = target.object.metadata.name;
  const request = (i: number) => {
    const body = JSON.stringify({
      ...target.object,
      metadata: { ...target.object.metadata, name: `${prefix}-${i}` },
    });
    return Buffer.from(
      `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\n${authorization}` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  };
  let n = Number(process.env.BENCH_OFFSET ?? 0);
  const next = () => n++;
  // warm up connections and JIT
  const warm = await Promise.all(
    Array.from({ length: CLIENTS }, () => connection(url, tls, request, Date.now() + 1000, next)),
  );
  const started = Date.now();
  const results = await Promise.all(
    Array.from({ length: CLIENTS }, () => connection(url, tls, request, started + SECONDS * 1000, next)),
  );
  const seconds = (Date.now() - started) / 1000;
  const ok = results.reduce((a, r) => a + r.ok, 0);
  const answered = [...warm, ...results].reduce((a, r) => a + r.ok + r.errors, 0);
  return { rate: ok / seconds, errors: results.reduce((a, r) => a + r.errors, 0), answered };
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

/** CPU per request (µs) of the server, PostgreSQL (every process of its cluster) and the load generator. */
export interface CpuShares {
  server: number;
  postgres?: number;
  client: number;
  /** share of the machine's CPU in use meanwhile, by anyone */
  busy: number;
}

/**
 * Runs `load` in its own process, as a real client would be, and measures what each process spent (/proc;
 * PostgreSQL only when it runs on this machine: `postmaster` is its pid here, or undefined).
 */
export async function loadFrom(
  url: string,
  token: string,
  tls: ClientTls,
  serverPid: number,
  postmaster?: number,
  target: LoadTarget = configMapTarget,
): Promise<LoadResult & { cpu: CpuShares }> {
  const started = Date.now();
  const machineBefore = machineCpuMs();
  const serverBefore = cpuMs(serverPid);
  const pgBefore = postmaster === undefined ? undefined : clusterCpuNs(postmaster);
  const child = spawn(
    process.execPath,
    [new URL(import.meta.url).pathname, '--client', url, token, `--seconds=${SECONDS}`],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  child.stdin.end(JSON.stringify({ tls, target }));
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  let clientMs = 0;
  // the child's CPU is read just before it exits (an exited child's /proc entry is gone)
  const sample = setInterval(() => (clientMs = cpuMs(child.pid!) || clientMs), 100);
  await new Promise((r) => child.on('exit', r));
  clearInterval(sample);
  const result = JSON.parse(out) as LoadResult;
  const n = Math.max(result.answered, 1);
  const elapsedMs = Date.now() - started;
  return {
    ...result,
    cpu: {
      server: ((cpuMs(serverPid) - serverBefore) * 1000) / n,
      postgres: pgBefore && grownNs(pgBefore, clusterCpuNs(postmaster!)) / 1000 / n,
      client: (clientMs * 1000) / n,
      busy: (machineCpuMs() - machineBefore) / (elapsedMs * cpus().length),
    },
  };
}

/** The postmaster's pid when PostgreSQL runs on this machine (its backends are its children). */
export async function postmasterOf(url: string): Promise<number | undefined> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const [{ pid }] = await sql`SELECT pg_backend_pid() AS pid`;
    const postmaster = parentOf(pid);
    return postmaster > 0 && /postgres/.test(readFileSync(`/proc/${postmaster}/cmdline`, 'utf8'))
      ? postmaster
      : undefined;
  } catch {
    return undefined;
  } finally {
    await sql.end();
  }
}

export const cpuLine = (c: CpuShares) =>
  `CPU per request: server ${c.server.toFixed(0)} µs, PostgreSQL ${c.postgres === undefined ? 'n/a' : `${c.postgres.toFixed(0)} µs`}, load generator ${c.client.toFixed(0)} µs; machine ${(100 * c.busy).toFixed(0)} % busy`;

/**
 * The baseline leaves ~250 MB of WAL and dirty pages behind; a checkpoint now, rather than one that starts in
 * the middle of the next phase, lets each phase begin from the same clean state.
 */
export async function settle(url: string): Promise<void> {
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

/** Flags for every authentication method beside the token file (each configured, none of them the bench's). */
async function everyAuthenticationMethod(webhook: TokenWebhook): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-bench-auth-'));
  const proxyCa = await testCa('bench-front-proxy');
  const proxyCaFile = path.join(dir, 'front-proxy-ca.crt');
  await writeFile(proxyCaFile, proxyCa.cert);
  const webhookConfig = await webhook.kubeconfig('bench');
  const authenticationConfig = path.join(dir, 'authentication.yaml');
  await writeFile(
    authenticationConfig,
    [
      'apiVersion: apiserver.config.k8s.io/v1beta1',
      'kind: AuthenticationConfiguration',
      'anonymous:',
      '  enabled: true',
      '  conditions:',
      '  - path: /livez',
      '',
    ].join('\n'),
  );
  return [
    `--requestheader-client-ca-file=${proxyCaFile}`,
    '--requestheader-allowed-names=front-proxy',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    '--enable-bootstrap-token-auth',
    `--authentication-token-webhook-config-file=${webhookConfig}`,
    `--authentication-config=${authenticationConfig}`,
  ];
}

/** The bearer token and TLS identity of `--credential`. */
async function credential(server: TestServer): Promise<{ token: string; tls: ClientTls }> {
  if (CREDENTIAL === 'certificate') {
    const pair = await clientCertificate(await dataDirCa(server.dataDir), {
      cn: 'bench',
      groups: ['system:masters'],
    });
    return { token: '', tls: { ca: server.ca, cert: pair.cert, key: pair.key } };
  }
  if (CREDENTIAL === 'serviceaccount') {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bench' } };
    const made = await server.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: sa });
    if (made.status !== 201) throw new Error(`service account: ${made.text}`);
    // RBAC denies by default: the account may create ConfigMaps through kube's edit role, in default only
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'bench-edit' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'ServiceAccount', name: 'bench', namespace: 'default' }],
    };
    const bound = await server.request(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
      { body: binding },
    );
    if (bound.status !== 201) throw new Error(`role binding: ${bound.text}`);
    const review = await server.request('POST', '/api/v1/namespaces/default/serviceaccounts/bench/token', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
    });
    if (review.status !== 201) throw new Error(`token request: ${review.text}`);
    return { token: review.json.status.token as string, tls: { ca: server.ca } };
  }
  if (CREDENTIAL !== 'admin') throw new Error(`--credential: admin, serviceaccount or certificate`);
  return { token: server.token, tls: { ca: server.ca } };
}

/** The server's own GC time so far (all kinds), from its metrics: what allocation per request costs it. */
async function gcSeconds(server: TestServer): Promise<number> {
  const metrics = (await server.request('GET', '/metrics')).text;
  return [...metrics.matchAll(/^nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

async function main() {
  const db = await benchDatabase('bench');
  const url = db.url;
  const raw = await pgbenchBaseline(url);
  await settle(url);
  const postmaster = await postmasterOf(url);
  const webhook =
    AUTH === 'all' ? await startTokenWebhook(() => ({ status: { authenticated: false } })) : undefined;
  const server = await startServer({
    databaseUrl: url,
    args: AUTH === 'all' ? await everyAuthenticationMethod(webhook!) : [],
  });
  const { token, tls } = await credential(server);
  const gcBefore = await gcSeconds(server);
  const result = await loadFrom(server.url, token, tls, server.pid, postmaster);
  const gc = (await gcSeconds(server)) - gcBefore;
  await webhook?.close();
  const pki = path.join(server.dataDir, 'pki');
  await server.stop();
  const bare = await bareFastify({
    cert: await readFile(path.join(pki, 'apiserver.crt'), 'utf8'),
    key: await readFile(path.join(pki, 'apiserver.key'), 'utf8'),
  });
  const ceiling = await loadFrom(bare.url, 'none', { ca: server.ca }, process.pid);
  await bare.close();
  await db.stop();
  console.log(`raw PostgreSQL single-row JSONB inserts/s (${raw.how}): ${raw.tps.toFixed(0)}`);
  console.log(`bare Fastify HTTPS echo of the same POST, same client: ${ceiling.rate.toFixed(0)}/s`);
  console.log(
    `pgkube ConfigMap creates/s over HTTPS, ${CLIENTS} keep-alive clients (authentication: ${AUTH}, credential: ${CREDENTIAL}): ${result.rate.toFixed(0)} (errors: ${result.errors})`,
  );
  console.log(`ratio pgkube / raw PostgreSQL: ${(result.rate / raw.tps).toFixed(2)} (target >= 0.5)`);
  console.log(`ratio pgkube / bare Fastify: ${(result.rate / ceiling.rate).toFixed(2)}`);
  console.log(`pgkube: ${cpuLine(result.cpu)}`);
  console.log(
    `pgkube: GC per request ${((gc * 1e6) / Math.max(result.answered, 1)).toFixed(1)} µs (the server's nodejs_gc_duration_seconds)`,
  );
  console.log(`bare Fastify (server = this process): ${cpuLine({ ...ceiling.cpu, postgres: undefined })}`);
}

if (process.argv[2] === '--client') {
  // the load generator's own process (loadFrom spawns this file)
  const chunks: Buffer[] = [];
  process.stdin.on('data', (c) => chunks.push(c));
  process.stdin.on('end', async () => {
    const { tls, target } = JSON.parse(Buffer.concat(chunks).toString()) as {
      tls: ClientTls;
      target: LoadTarget;
    };
    const r = await load(process.argv[3], process.argv[4], tls, target);
    process.stdout.write(JSON.stringify(r));
  });
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main();
}
