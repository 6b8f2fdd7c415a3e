/** /metrics: Prometheus text that an independent parser reads, kube's metric names and labels, moving counters. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { parsePrometheus, sample, series } from './support/prometheus.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const mainJs = fileURLToPath(new URL('../src/main.js', import.meta.url));

describe('/metrics', () => {
  const s = useServer();

  let lastText = '';
  const scrape = async () => {
    const r = await s.request('GET', '/metrics');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    lastText = r.text;
    return parsePrometheus(r.text);
  };

  it('is Prometheus text with kube help, types and process metrics; anonymous users are refused', async () => {
    const families = await scrape();
    assert.equal(families.get('apiserver_request_total')?.type, 'COUNTER');
    assert.equal(
      families.get('apiserver_request_total')?.help,
      '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    );
    assert.equal(families.get('apiserver_request_duration_seconds')?.type, 'HISTOGRAM');
    assert.equal(families.get('apiserver_watch_events_total')?.help.startsWith('[ALPHA] '), true);
    for (const name of [
      'apiserver_current_inflight_requests',
      'apiserver_longrunning_requests',
      'apiserver_storage_objects',
      'apiserver_requested_deprecated_apis',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
    ]) {
      assert.ok(families.has(name), name);
    }
    assert.equal((await s.request('GET', '/metrics', { token: null })).status, 403);
  });

  it('counts requests with kube labels and codes, and times them', async () => {
    const labels = {
      verb: 'POST',
      group: '',
      version: 'v1',
      resource: 'configmaps',
      subresource: '',
      scope: 'namespace',
      component: 'apiserver',
    };
    const before = Number(
      sample(await scrape(), 'apiserver_request_total', { ...labels, code: '201' })?.value ?? 0,
    );
    for (const name of ['m1', 'm2', 'm3']) {
      const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
      });
      assert.equal(r.status, 201);
    }
    const dup = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm1' } },
    });
    assert.equal(dup.status, 409);
    await s.request('GET', '/api/v1/configmaps');
    await s.request('GET', '/api/v1/namespaces/default/configmaps/m1');
    await s.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' } },
    });
    const families = await scrape();
    assert.equal(
      Number(sample(families, 'apiserver_request_total', { ...labels, code: '201', dry_run: '' })?.value),
      before + 3,
    );
    assert.equal(sample(families, 'apiserver_request_total', { ...labels, code: '409' })?.value, '1');
    assert.equal(
      sample(families, 'apiserver_request_total', { ...labels, dry_run: 'All', code: '201' })?.value,
      '1',
    );
    assert.ok(
      sample(families, 'apiserver_request_total', {
        verb: 'LIST',
        resource: 'configmaps',
        scope: 'cluster',
        code: '200',
      }),
    );
    assert.ok(
      sample(families, 'apiserver_request_total', {
        verb: 'GET',
        resource: 'configmaps',
        scope: 'resource',
        code: '200',
      }),
    );
    assert.ok(
      sample(families, 'apiserver_request_total', { verb: 'GET', subresource: '/metrics', code: '200' }),
    );
    const d = { ...labels, dry_run: '' };
    assert.equal(series(lastText, 'apiserver_request_duration_seconds_count', d), before + 4);
    assert.equal(
      series(lastText, 'apiserver_request_duration_seconds_bucket', { ...d, le: '60' }),
      before + 4,
    );
    assert.equal(
      series(lastText, 'apiserver_request_duration_seconds_bucket', { ...d, le: '+Inf' }),
      before + 4,
    );
    assert.ok(series(lastText, 'apiserver_request_duration_seconds_sum', d)! > 0);
    // every configmap the server holds is counted, by kube's resource label
    assert.ok(Number(sample(families, 'apiserver_storage_objects', { resource: 'configmaps' })?.value) >= 3);
    assert.equal(sample(families, 'apiserver_storage_objects', { resource: 'namespaces' })?.value, '4');
  });

  it('shows a watch as a long-running request while it is open', async () => {
    const watchLabels = { verb: 'WATCH', resource: 'configmaps', scope: 'namespace' };
    const w = await openWatch(s, '/api/v1/namespaces/default/configmaps?watch=1');
    try {
      assert.equal(sample(await scrape(), 'apiserver_longrunning_requests', watchLabels)?.value, '1');
    } finally {
      w.close();
    }
    for (let i = 0; i < 50; i++) {
      const families = await scrape();
      if (sample(families, 'apiserver_longrunning_requests', watchLabels)?.value === '0') {
        assert.ok(sample(families, 'apiserver_request_total', { ...watchLabels, code: '200' }));
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail('the closed watch is still counted as long-running');
  });

  it('counts the events sent to watchers by group, version and kind', async () => {
    const labels = { group: '', version: 'v1', kind: 'ConfigMap' };
    const before = Number(sample(await scrape(), 'apiserver_watch_events_total', labels)?.value ?? 0);
    const rv = (await s.request('GET', '/api/v1/namespaces/default/configmaps')).json.metadata
      .resourceVersion;
    const watches = await Promise.all(
      [1, 2].map(() => openWatch(s, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`)),
    );
    try {
      for (const name of ['w1', 'w2', 'w3']) {
        await s.request('POST', '/api/v1/namespaces/default/configmaps', {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
        });
      }
      for (const w of watches) for (let i = 0; i < 3; i++) assert.equal((await w.next()).type, 'ADDED');
    } finally {
      for (const w of watches) w.close();
    }
    assert.equal(Number(sample(await scrape(), 'apiserver_watch_events_total', labels)?.value), before + 6);
  });

  it('stays bounded under made-up groups, resources and subresources (one series for all of them)', async () => {
    const count = async () => (await scrape()).get('apiserver_request_total')?.metrics.length ?? 0;
    const paths = (i: number) => [
      `/apis/made-up-${i}.example.com/v1/things`,
      `/apis/coordination.k8s.io/v1/made-up-${i}`,
      `/api/v1/namespaces/default/configmaps/x/made-up-${i}`,
      `/apis/made-up-${i}.example.com`,
    ];
    for (const p of paths(0)) assert.equal((await s.request('GET', p)).status, 404, p);
    const before = await count();
    for (let i = 1; i <= 100; i++) {
      for (const p of paths(i)) assert.equal((await s.request('GET', p)).status, 404, p);
    }
    assert.equal(await count(), before);
    assert.doesNotMatch(lastText, /made-up/);
  });

  it('refuses --show-hidden-metrics-for-version other than the previous minor release', () => {
    const r = spawnSync(process.execPath, [mainJs, 'serve', '--show-hidden-metrics-for-version=1.30'], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /show-hidden-metrics-for-version: must be omitted or have the value '1\.31'/);
  });
});
