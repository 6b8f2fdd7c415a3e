/**
 * Real clients on list+watch: an @kubernetes/client-node informer stays in sync through creates, updates and
 * deletes, and relists after its resourceVersion fell out of the history window; `kubectl get -w` streams
 * changes; `kubectl get --chunk-size=2` pages through a collection.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { freePort } from '../modules/storage/index.js';
import { kubectl, kubectlBinary } from './support/kubectl.js';
import { startServer } from './support/server.js';
import { useServer } from './support/use-server.js';

const base = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, v = '1') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v },
});

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail('condition not met in time');
}

describe('informer and kubectl on list+watch', () => {
  // a fixed port: the informer reconnects to the server restarted on it
  const s = useServer(async () => ({
    args: ['--history-retention=2s', `--secure-port=${await freePort()}`],
  }));

  it('a client-node informer stays in sync, and relists after a 410', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(s.kubeconfig);
    const api = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer<V1ConfigMap>(kc, base, () =>
      api.listNamespacedConfigMap({ namespace: 'default' }),
    );
    const seen: string[] = [];
    // the test's own ConfigMaps: the namespace also holds kube-root-ca.crt, which each server (each with its
    // own generated CA) publishes in turn
    const ours = (o: V1ConfigMap) => o.metadata?.name !== 'kube-root-ca.crt';
    informer.on('add', (o) => ours(o) && seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => ours(o) && seen.push(`update ${o.metadata?.name} ${o.data?.v}`));
    informer.on('delete', (o) => ours(o) && seen.push(`delete ${o.metadata?.name}`));
    // client-node hands connection errors to the application, which restarts the informer (its documented use)
    let running = true;
    informer.on('error', () => {
      if (running) setTimeout(() => void informer.start().catch(() => undefined), 500);
    });
    await informer.start();
    try {
      const created = (await s.request('POST', base, { body: cm('inf-1') })).json;
      await s.request('PUT', `${base}/inf-1`, { body: { ...created, data: { v: '2' } } });
      await s.request('POST', base, { body: cm('inf-2') });
      await s.request('DELETE', `${base}/inf-2`);
      await eventually(() => seen.includes('delete inf-2'));
      assert.deepEqual(seen, ['add inf-1', 'update inf-1 2', 'add inf-2', 'delete inf-2']);
      assert.deepEqual(
        informer
          .list()
          .filter(ours)
          .map((o) => o.metadata?.name),
        ['inf-1'],
      );

      // the informer's revision falls out of the 2 s window while its server is away
      const dataDir = s.dataDir;
      await s.stop();
      const other = await startServer({ databaseUrl: s.db.url });
      await other.request('POST', base, { body: cm('while-away') });
      await other.request('DELETE', `${base}/inf-1`);
      await new Promise((r) => setTimeout(r, 3000));
      await other.request('POST', base, { body: cm('after-window') });
      await other.stop();
      await s.restart({ dataDir }); // same args: the same port
      await eventually(() => {
        const names = informer
          .list()
          .filter(ours)
          .map((o) => o.metadata?.name)
          .sort();
        return names.join() === 'after-window,while-away';
      }, 30_000);
    } finally {
      running = false;
      await informer.stop();
    }
  });

  it('kubectl get -w prints changes as they happen', async () => {
    const bin = await kubectlBinary();
    const child = spawn(bin, ['--kubeconfig', s.kubeconfig, 'get', 'configmaps', '-w', '-o', 'name'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    try {
      await eventually(() => out.includes('configmap/after-window'));
      await s.request('POST', base, { body: cm('streamed') });
      await eventually(() => out.includes('configmap/streamed'));
    } finally {
      child.kill();
    }
  });

  it('kubectl get --chunk-size=2 pages through a collection', async () => {
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) await s.request('POST', base, { body: cm(name) });
    const r = await kubectl(['get', 'configmaps', '--chunk-size=2', '-o', 'name', '-v=6'], {
      kubeconfig: s.kubeconfig,
    });
    assert.equal(r.code, 0, r.stderr);
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5'])
      assert.match(r.stdout, new RegExp(`configmap/${name}\\n`));
    const pages = r.stderr.split('\n').filter((l) => /GET .*configmaps\?.*limit=2/.test(l));
    assert.ok(pages.length >= 3, `paged requests:\n${pages.join('\n')}`);
    assert.ok(pages.some((l) => l.includes('continue=')));
  });
});
