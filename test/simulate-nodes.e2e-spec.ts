/**
 * `pgkube simulate-nodes`: N light agents in one process register their Nodes, renew their Leases, run the pods
 * bound to them through one shared pod watch, and report their Lease update latencies as JSON lines.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { runPgkube } from './support/server.js';
import { useServer } from './support/use-server.js';

const mainJs = fileURLToPath(new URL('../src/main.js', import.meta.url));
const COUNT = 20;

describe('pgkube simulate-nodes', () => {
  const s = useServer();

  it('runs N nodes: Ready, leases renewed, pods run, statistics reported', async () => {
    const sim = spawn(
      process.execPath,
      [
        mainJs,
        'simulate-nodes',
        `--count=${COUNT}`,
        `--kubeconfig=${s.kubeconfig}`,
        '--node-lease-duration-seconds=4',
        '--report-interval=1s',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines: any[] = [];
    createInterface({ input: sim.stdout! }).on('line', (l) => lines.push(JSON.parse(l)));
    let stderr = '';
    sim.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      await eventually(() => lines.some((l) => l.event === 'registered'), 'registered', 30_000);
      assert.equal(lines.find((l) => l.event === 'registered').nodes, COUNT);
      const nodes = (await s.request('GET', '/api/v1/nodes')).json.items as any[];
      assert.equal(nodes.length, COUNT);
      assert.deepEqual(
        nodes.map((n) => n.metadata.name),
        Array.from({ length: COUNT }, (_, i) => `sim-node-${String(i + 1).padStart(5, '0')}`),
      );
      assert.ok(
        nodes.every((n) => n.status.conditions.find((c: any) => c.type === 'Ready').status === 'True'),
      );

      await eventually(
        () => lines.some((l) => l.event === 'window' && l.leaseUpdates > 0),
        'a window with lease updates',
        10_000,
      );
      const window = lines.find((l) => l.event === 'window' && l.leaseUpdates > 0);
      assert.equal(window.leaseFailures, 0);
      assert.ok(window.p50Ms > 0 && window.p99Ms >= window.p50Ms, JSON.stringify(window));

      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'on-sim' },
        spec: {
          nodeSelector: { 'kubernetes.io/hostname': 'sim-node-00007' },
          containers: [{ name: 'c', image: 'x' }],
        },
      };
      assert.equal((await s.request('POST', '/api/v1/namespaces/default/pods', { body: pod })).status, 201);
      await eventually(async () => {
        const p = (await s.request('GET', '/api/v1/namespaces/default/pods/on-sim')).json;
        return p.spec.nodeName === 'sim-node-00007' && p.status.phase === 'Running';
      }, 'the pod runs on its simulated node');
    } finally {
      const exited = new Promise<void>((r) => sim.once('exit', () => r()));
      sim.kill('SIGTERM');
      await exited;
    }
    const total = lines.find((l) => l.event === 'total');
    assert.ok(total, stderr);
    assert.ok(total.leaseUpdates >= COUNT, JSON.stringify(total));
    assert.equal(total.leaseFailures, 0);
  });

  it('refuses missing or bad flags', async () => {
    const r = await runPgkube(['simulate-nodes', '--count=0', '--kubeconfig=x']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--count must be a positive integer/);
    const none = await runPgkube(['simulate-nodes']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--count and --kubeconfig are required/);
  });
});
