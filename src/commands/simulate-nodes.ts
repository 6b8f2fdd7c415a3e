/**
 * `pgkube simulate-nodes --count N --kubeconfig FILE`: N light node agents in one process, for scale tests.
 * Each registers its Node, renews its Lease every quarter of the lease duration, posts its status on change or
 * every report period, and runs the pods bound to it on the simulated runtime; all share one connection pool and
 * one watch of pods. Every `--report-interval` a JSON line tells how the Lease updates went in that window
 * (count, failures, p50/p99/max milliseconds) and the node status posts; a last line with the totals at exit.
 */
import { readWebhookKubeconfig } from '../../modules/webhook/index.js';
import { ConfigError, parseDuration } from '../config/config.js';
import { NodeAgent } from '../node-agent/agent.js';
import { ApiClient } from '../node-agent/api-client.js';
import { simulatedHost } from '../node-agent/host-figures.js';
import { nodeIdentity } from '../node-agent/identity.js';
import { DEFAULT_EVICTION_HARD } from '../node-agent/node-status.js';
import { PodFeed } from '../node-agent/pod-feed.js';

export const simulateNodesUsage = [
  'usage: pgkube simulate-nodes --count N --kubeconfig FILE [flags]',
  '',
  '  --count N                      how many nodes (required)',
  '  --kubeconfig FILE              how to reach the server (a user allowed to write nodes, leases, pods/status)',
  '  --name-prefix P                node names are P00001, P00002, ... (default sim-node-)',
  "  --node-lease-duration-seconds S  the Leases' duration; renewed every quarter of it (default 40)",
  '  --node-status-update-frequency D  how often the status is computed (default 10s)',
  '  --node-status-report-frequency D  how often an unchanged status is posted (default 5m)',
  '  --register-concurrency N       nodes registering at once (default 50)',
  '  --report-interval D            how often a statistics line is printed (default 10s)',
].join('\n');

interface Options {
  count: number;
  kubeconfig: string;
  prefix: string;
  leaseSeconds: number;
  statusUpdateMs: number;
  statusReportMs: number;
  registerConcurrency: number;
  reportMs: number;
}

export function parseSimulateNodes(argv: readonly string[]): Options | 'help' {
  const values = new Map<string, string>();
  const known = [
    'count',
    'kubeconfig',
    'name-prefix',
    'node-lease-duration-seconds',
    'node-status-update-frequency',
    'node-status-report-frequency',
    'register-concurrency',
    'report-interval',
  ];
  const args = [...argv];
  while (args.length > 0) {
    const arg = args.shift()!;
    if (arg === '-h' || arg === '--help') return 'help';
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!m || !known.includes(m[1]))
      throw new ConfigError(`unexpected argument "${arg}"\n${simulateNodesUsage}`);
    const value = m[2] ?? args.shift();
    if (value === undefined) throw new ConfigError(`flag needs an argument: --${m[1]}`);
    values.set(m[1], value);
  }
  const positive = (name: string, fallback: number) => {
    const v = values.get(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new ConfigError(`--${name} must be a positive integer`);
    return Number(v);
  };
  const count = positive('count', 0);
  const kubeconfig = values.get('kubeconfig');
  if (count === 0 || !kubeconfig)
    throw new ConfigError(`--count and --kubeconfig are required\n${simulateNodesUsage}`);
  const duration = (name: string, fallback: string) =>
    parseDuration(values.get(name) ?? fallback, `--${name}`);
  return {
    count,
    kubeconfig,
    prefix: values.get('name-prefix') ?? 'sim-node-',
    leaseSeconds: positive('node-lease-duration-seconds', 40),
    statusUpdateMs: duration('node-status-update-frequency', '10s'),
    statusReportMs: duration('node-status-report-frequency', '5m'),
    registerConcurrency: positive('register-concurrency', 50),
    reportMs: duration('report-interval', '10s'),
  };
}

class Window {
  renewals: number[] = [];
  leaseFailures = 0;
  statusPosts = 0;
  statusFailures = 0;

  summary(extra: Record<string, unknown>): Record<string, unknown> {
    const sorted = [...this.renewals].sort((a, b) => a - b);
    const q = (p: number) =>
      sorted.length
        ? Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2))
        : null;
    return {
      ...extra,
      leaseUpdates: sorted.length,
      leaseFailures: this.leaseFailures,
      p50Ms: q(0.5),
      p99Ms: q(0.99),
      maxMs: sorted.length ? Number(sorted[sorted.length - 1].toFixed(2)) : null,
      statusPosts: this.statusPosts,
      statusFailures: this.statusFailures,
    };
  }
}

export async function simulateNodesCommand(argv: readonly string[]): Promise<void> {
  let o: Options | 'help';
  try {
    o = parseSimulateNodes(argv);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`pgkube: ${e.message}`);
    process.exit(2);
  }
  if (o === 'help') return console.log(simulateNodesUsage);
  const options = o;
  const api = new ApiClient(await readWebhookKubeconfig(options.kubeconfig), 10_000, 256);
  const pods = new PodFeed(api);
  pods.start();
  let window = new Window();
  let total = new Window();
  let totalSince = Date.now();
  const hooks = {
    onRenew(ms: number, ok: boolean) {
      for (const w of [window, total]) {
        if (ok) w.renewals.push(ms);
        else w.leaseFailures++;
      }
    },
    onStatus(_ms: number, ok: boolean) {
      for (const w of [window, total]) {
        if (ok) w.statusPosts++;
        else w.statusFailures++;
      }
    },
  };
  const renewMs = options.leaseSeconds * 250;
  const agents = Array.from({ length: options.count }, (_, i) => {
    const n = i + 1;
    return new NodeAgent({
      api,
      identity: nodeIdentity({
        name: `${options.prefix}${String(n).padStart(5, '0')}`,
        internalIP: `172.${16 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`,
        port: 10250,
        maxPods: 110,
        simulated: true,
      }),
      leaseDurationSeconds: options.leaseSeconds,
      statusUpdateMs: options.statusUpdateMs,
      statusReportMs: options.statusReportMs,
      evictionHard: DEFAULT_EVICTION_HARD,
      host: () => Promise.resolve(simulatedHost),
      pods,
      runtime: { rootDir: '/nonexistent', checkSeccomp: false },
      hooks,
      log: (m) => console.error(m),
    });
  });
  let registered = 0;
  const started = Date.now();
  const queue = [...agents];
  // the nodes' first renewals are spread over one interval, as independent kubelets' would be
  await Promise.all(
    Array.from({ length: options.registerConcurrency }, async () => {
      for (let a = queue.shift(); a; a = queue.shift()) {
        await a.start(Math.random() * renewMs);
        registered++;
      }
    }),
  );
  console.log(
    JSON.stringify({ event: 'registered', nodes: registered, seconds: (Date.now() - started) / 1000 }),
  );
  const report = setInterval(() => {
    console.log(
      JSON.stringify(window.summary({ event: 'window', at: new Date().toISOString(), nodes: registered })),
    );
    window = new Window();
  }, options.reportMs);
  const stop = () => {
    clearInterval(report);
    for (const a of agents) a.stop();
    pods.stop();
    console.log(
      JSON.stringify(
        total.summary({ event: 'total', nodes: registered, seconds: (Date.now() - totalSince) / 1000 }),
      ),
    );
    api.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // the totals start again (a benchmark measures the steady state, after the registration burst)
  process.on('SIGUSR1', () => {
    total = new Window();
    totalSince = Date.now();
    console.log(JSON.stringify({ event: 'reset' }));
  });
}
