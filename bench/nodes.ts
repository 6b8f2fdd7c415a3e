/**
 * bench/nodes, issue 20's target: N simulated nodes (`pgkube simulate-nodes`, default 5,000) renewing their
 * Leases every 10 s (500 writes/s) and posting their status, for a while (default 5 minutes) on one server.
 * Printed: p50/p99/max Lease update latency and failures per window and in total, the server's CPU and RSS.
 * Target: p99 < 1 s, 0 errors.
 *
 * Baseline in the same run, on the same PostgreSQL: the same nodes' Lease writes as bare UPDATEs of a JSONB row
 * per node at the same rate (postgres.js, as many connections as the simulator's pool), and the ratio.
 *
 *   npm run build && node dist/bench/nodes.js [--nodes=5000] [--seconds=300] [--baseline-seconds=60]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startServer } from '../test/support/server.js';
import { arg, benchDatabase, cpuMs, rssMb } from './support.js';

const NODES = Number(arg('nodes', '5000'));
const SECONDS = Number(arg('seconds', '300'));
const BASELINE_SECONDS = Number(arg('baseline-seconds', '60'));
const LEASE_SECONDS = 40;
const mainJs = fileURLToPath(new URL('../src/main.js', import.meta.url));

const quantile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** The bare baseline: one row per node, each UPDATEd every renew interval, spread evenly. */
async function bareLeaseWrites(
  url: string,
): Promise<{ p50: number; p99: number; max: number; writes: number; failures: number }> {
  const sql = postgres(url, { max: 256, onnotice: () => undefined });
  await sql`CREATE TABLE IF NOT EXISTS bench_leases (name text PRIMARY KEY, body jsonb NOT NULL)`;
  const lease = (name: string) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-node-lease', resourceVersion: '1' },
    spec: { holderIdentity: name, leaseDurationSeconds: LEASE_SECONDS, renewTime: new Date().toISOString() },
  });
  const names = Array.from({ length: NODES }, (_, i) => `sim-node-${String(i + 1).padStart(5, '0')}`);
  for (let i = 0; i < names.length; i += 1000) {
    const rows = names.slice(i, i + 1000).map((name) => ({ name, body: lease(name) }));
    await sql`INSERT INTO bench_leases ${sql(rows)} ON CONFLICT (name) DO NOTHING`;
  }
  const latencies: number[] = [];
  let failures = 0;
  const intervalMs = LEASE_SECONDS * 250;
  const end = Date.now() + BASELINE_SECONDS * 1000;
  await Promise.all(
    names.map(async (name) => {
      await new Promise((r) => setTimeout(r, Math.random() * intervalMs));
      while (Date.now() < end) {
        const started = performance.now();
        try {
          await sql`UPDATE bench_leases SET body = ${sql.json(lease(name))} WHERE name = ${name}`;
          latencies.push(performance.now() - started);
        } catch {
          failures++;
        }
        await new Promise((r) => setTimeout(r, intervalMs));
      }
    }),
  );
  await sql`DROP TABLE bench_leases`;
  await sql.end();
  latencies.sort((a, b) => a - b);
  return {
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies[latencies.length - 1],
    writes: latencies.length,
    failures,
  };
}

async function main(): Promise<void> {
  const db = await benchDatabase('bench_nodes');
  const s = await startServer({ databaseUrl: db.url });
  try {
    const baseline = await bareLeaseWrites(db.url);
    console.log(
      `bare PostgreSQL: ${baseline.writes} lease UPDATEs in ${BASELINE_SECONDS} s (${(baseline.writes / BASELINE_SECONDS).toFixed(0)}/s), ` +
        `p50 ${baseline.p50.toFixed(2)} ms, p99 ${baseline.p99.toFixed(2)} ms, max ${baseline.max.toFixed(1)} ms, ${baseline.failures} failures`,
    );

    const sim = spawn(
      process.execPath,
      [mainJs, 'simulate-nodes', `--count=${NODES}`, `--kubeconfig=${s.kubeconfig}`, '--report-interval=30s'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: sim.stdout! });
    const events: any[] = [];
    let onLine: (e: any) => void = () => undefined;
    lines.on('line', (l) => {
      const e = JSON.parse(l);
      events.push(e);
      onLine(e);
    });
    const registered = await new Promise<any>(
      (resolve) => (onLine = (e) => e.event === 'registered' && resolve(e)),
    );
    console.log(`${registered.nodes} nodes registered in ${registered.seconds.toFixed(1)} s`);
    // the first renewals and status posts of every node came in a burst: measured from one interval later
    await new Promise((r) => setTimeout(r, LEASE_SECONDS * 250 + 5_000));
    sim.kill('SIGUSR1');
    const cpu0 = cpuMs(s.pid);
    const simCpu0 = cpuMs(sim.pid!);
    const t0 = Date.now();
    let peakRss = 0;
    onLine = (e) => {
      if (e.event === 'window')
        console.log(
          `  ${e.at}: ${e.leaseUpdates} lease updates (${(e.leaseUpdates / 30).toFixed(0)}/s), p50 ${e.p50Ms} ms, p99 ${e.p99Ms} ms, ` +
            `max ${e.maxMs} ms, ${e.leaseFailures} failures; ${e.statusPosts} status posts, ${e.statusFailures} failures`,
        );
    };
    while (Date.now() - t0 < SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, 5_000));
      peakRss = Math.max(peakRss, await rssMb(s.pid));
    }
    const serverCpu = (cpuMs(s.pid) - cpu0) / (Date.now() - t0);
    const simCpu = (cpuMs(sim.pid!) - simCpu0) / (Date.now() - t0);
    const total = await new Promise<any>((resolve) => {
      onLine = (e) => e.event === 'total' && resolve(e);
      sim.kill('SIGTERM');
    });
    console.log(
      `pgkube: ${total.leaseUpdates} lease updates (${(total.leaseUpdates / total.seconds).toFixed(0)}/s over ${total.seconds.toFixed(0)} s), ` +
        `p50 ${total.p50Ms} ms, p99 ${total.p99Ms} ms, max ${total.maxMs} ms, ${total.leaseFailures} failures; ` +
        `${total.statusPosts} status posts, ${total.statusFailures} failures`,
    );
    console.log(
      `server CPU ${(serverCpu * 100).toFixed(0)}% of a core, RSS peak ${peakRss.toFixed(0)} MB; simulator CPU ${(simCpu * 100).toFixed(0)}%`,
    );
    console.log(
      `ratio pgkube/bare: p50 ${(total.p50Ms / baseline.p50).toFixed(1)}×, p99 ${(total.p99Ms / baseline.p99).toFixed(1)}× ` +
        `(target: p99 < 1000 ms → ${total.p99Ms < 1000 && total.leaseFailures === 0 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await s.stop();
    await db.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
