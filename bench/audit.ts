/**
 * bench/audit — ConfigMap creates/s with audit at Metadata level to the database (--audit-database, every
 * request's RequestReceived and ResponseComplete events) vs audit off, in one run on one database: interleaved
 * rounds in the order off, on, on, off, off, on, ... (a drift of the machine's speed over the run weighs on both
 * alike), the server restarted between them with or without the audit flags, each from the same database. The
 * load is bench/create's (its `loadFrom`: 8 keep-alive HTTPS clients in their own process). Prints each round,
 * the medians and their ratio (target >= 0.9), each round's own ratio (its off and on rounds ran back to back)
 * with their median and mean (95 % interval), and the events the table holds.
 *
 *   node dist/bench/audit.js [--seconds=10] [--rounds=8] [--backend=database|log] [--omit-received] [--level=Metadata] [--database-url=...]
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { startServer } from '../test/support/server.js';
import { cpuLine, loadFrom, postmasterOf, settle, type CpuShares } from './create.js';
import { arg, benchDatabase } from './support.js';

const ROUNDS = Number(arg('rounds', '8'));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * `m ± h (95 %)`: the mean and the half-width of Student's t interval. Runs of the same code differ by ±0.05 on
 * this VM: the interval says whether a run's figures tell one build from another, or from the target.
 */
function meanInterval(xs: number[]): string {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return mean.toFixed(2);
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  // two-sided 95 % quantiles of t for 1..9 degrees of freedom, then the normal's
  const t = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26][n - 2] ?? 1.96;
  return `${mean.toFixed(3)} ± ${((t * sd) / Math.sqrt(n)).toFixed(3)} (95 %)`;
}

async function auditErrors(request: (m: string, p: string) => Promise<{ text: string }>): Promise<number> {
  const text = (await request('GET', '/metrics')).text;
  return [...text.matchAll(/^apiserver_audit_error_total\{[^}]*\} (\S+)$/gm)].reduce(
    (s, m) => s + Number(m[1]),
    0,
  );
}

/**
 * Every round starts from the same database: the ConfigMaps earlier rounds created (and their history) and the
 * audit events removed while no server runs, so a later round's server neither loads more objects into its cache
 * nor writes beside bigger tables than an earlier one's (without it the audit rounds, always after an off round,
 * ran with more objects, and each appended to the events the earlier ones left). Resolves with the events the
 * round left.
 */
async function reset(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const [{ migrated }] = await sql`SELECT to_regclass('audit_events') IS NOT NULL AS migrated`;
    if (!migrated) return 0;
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM k8s.audit_events WHERE verb = 'create'`;
    await sql`TRUNCATE audit_events`;
    await sql`DELETE FROM objects WHERE resource = '/configmaps' AND name LIKE 'cm-%'`;
    await sql`DELETE FROM changes WHERE resource = '/configmaps' AND name LIKE 'cm-%'`;
    await sql`VACUUM ANALYZE objects, changes, audit_events`;
    // and a checkpoint behind it, so that none falls inside some rounds (with the full-page images after it)
    // and not others
    await sql`CHECKPOINT`.catch(() => undefined);
    return n;
  } finally {
    await sql.end();
  }
}

async function main() {
  const db = await benchDatabase('bench_audit');
  const postmaster = await postmasterOf(db.url);
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-bench-audit-'));
  const policy = path.join(dir, 'policy.yaml');
  // --omit-received: kube's usual policy head, RequestReceived omitted (one event per request, not two)
  const omit = process.argv.includes('--omit-received') ? 'omitStages: [RequestReceived]\n' : '';
  await writeFile(
    policy,
    `apiVersion: audit.k8s.io/v1\nkind: Policy\n${omit}rules:\n  - level: ${arg('level', 'Metadata')}\n`,
  );
  // --backend=log: the JSON lines log (a file in a temp dir) instead (what the database backend adds, by difference)
  const backend =
    arg('backend', 'database') === 'log'
      ? `--audit-log-path=${path.join(dir, 'audit.log')}`
      : '--audit-database';
  const auditArgs = [`--audit-policy-file=${policy}`, backend];
  const rates: Record<'off' | 'on', number[]> = { off: [], on: [] };
  const cpu: Record<'off' | 'on', CpuShares[]> = { off: [], on: [] };
  let offset = 0;
  let lost = 0;
  let events = 0;
  let audited = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      events += await reset(db.url);
      await settle(db.url);
      const server = await startServer({ databaseUrl: db.url, args: mode === 'on' ? auditArgs : [] });
      // fresh names each round (the load names objects cm-<n> from BENCH_OFFSET on)
      process.env.BENCH_OFFSET = String(offset);
      const r = await loadFrom(server.url, server.token, { ca: server.ca }, server.pid, postmaster);
      offset += r.answered + 1000;
      if (mode === 'on') {
        lost += await auditErrors((m, p) => server.request(m, p));
        audited += r.answered;
      }
      await server.stop();
      rates[mode].push(r.rate);
      cpu[mode].push(r.cpu);
      console.log(
        `round ${round + 1}, audit ${mode}: ${r.rate.toFixed(0)} creates/s (errors ${r.errors}); ${cpuLine(r.cpu)}`,
      );
    }
  }
  events += await reset(db.url);
  await db.stop();
  const off = median(rates.off);
  const on = median(rates.on);
  console.log(
    `audit off: median ${off.toFixed(0)} creates/s (${rates.off.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `audit Metadata → database: median ${on.toFixed(0)} creates/s (${rates.on.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(`ratio audit on / off: ${(on / off).toFixed(2)} (target >= 0.9)`);
  // each round's off and on ran next to each other: their ratio sees less of the machine's drift than the medians
  const paired = rates.on.map((r, i) => r / rates.off[i]);
  console.log(
    `ratio per round: ${paired.map((x) => x.toFixed(2)).join(', ')}; median ${median(paired).toFixed(2)}; mean ${meanInterval(paired)}`,
  );
  console.log(
    `server CPU per create: off ${median(cpu.off.map((c) => c.server)).toFixed(0)} µs, on ${median(cpu.on.map((c) => c.server)).toFixed(0)} µs; PostgreSQL: off ${median(cpu.off.map((c) => c.postgres ?? NaN)).toFixed(0)} µs, on ${median(cpu.on.map((c) => c.postgres ?? NaN)).toFixed(0)} µs`,
  );
  console.log(
    `audit_events rows for creates: ${events} (${(events / audited).toFixed(2)} per create answered); events dropped (apiserver_audit_error_total): ${lost}`,
  );
}

await main();
