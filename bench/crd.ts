/**
 * bench/crd, issue 17's two targets:
 *
 * 1. Creates/s of a custom resource whose CRD schema carries 10 CEL rules, against ConfigMap creates/s on the
 *    same server in the same run (bench/create's load: 1 KB objects over HTTPS, 8 keep-alive clients; phases in
 *    ABBA order, each with names of its own). Target: ratio >= 0.8.
 * 2. CRD created on one replica → its kind served by a second replica on the same database: the time until the
 *    second answers a list of the new kind, over 50 CRDs one after another. Target: p99 < 1 s.
 *
 *   npm run build && node dist/bench/crd.js [--seconds=10] [--crds=50] [--part=creates|served] [--database-url=…]
 */
import { startServer, type TestServer } from '../test/support/server.js';
import { configMapTarget, cpuLine, loadFrom, postmasterOf, type LoadTarget } from './create.js';
import { arg, benchDatabase } from './support.js';

const CRDS = Number(arg('crds', '50'));
const GROUP = 'bench.pgkube.io';
const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A widget: ten CEL rules over its spec (sizes bounded, as real CRDs must for the cost estimate) */
function widgetCrd(plural: string, kind: string): object {
  const bounded = { type: 'string', maxLength: 1100 };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural, singular: plural.replace(/s$/, ''), kind },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size', 'color', 'payload'],
                  properties: {
                    size: { type: 'integer' },
                    replicas: { type: 'integer' },
                    color: { type: 'string', maxLength: 32 },
                    payload: bounded,
                    tags: { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 32 } },
                  },
                  'x-kubernetes-validations': [
                    { rule: 'self.size >= 0' },
                    { rule: 'self.size <= 1000', message: 'size is at most 1000' },
                    { rule: "self.color in ['red', 'green', 'blue']" },
                    { rule: 'self.payload.size() <= 1100' },
                    { rule: '!has(self.replicas) || self.replicas >= 0' },
                    { rule: "self.color.startsWith('r') || self.color.size() > 3" },
                    { rule: '!has(self.tags) || self.tags.all(t, t.size() > 0)' },
                    { rule: '!has(self.tags) || self.tags.size() <= 8' },
                    { rule: "self.payload.matches('^x*$')" },
                    { rule: 'self.size % 2 == 0 || self.size % 2 == 1' },
                  ],
                },
              },
            },
          },
        },
      ],
    },
  };
}

const widgetTarget: LoadTarget = {
  path: `/apis/${GROUP}/v1/namespaces/default/widgets`,
  object: {
    apiVersion: `${GROUP}/v1`,
    kind: 'Widget',
    metadata: { name: 'w' },
    spec: { size: 10, replicas: 1, color: 'green', payload: 'x'.repeat(900), tags: ['a', 'b'] },
  },
};

async function waitFor(server: TestServer, path: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await server.request('GET', path)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${path}: not served after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function creates(): Promise<void> {
  const db = await benchDatabase('bench_crd');
  const postmaster = await postmasterOf(db.url);
  const server = await startServer({ databaseUrl: db.url });
  const made = await server.request('POST', CRD_PATH, { body: widgetCrd('widgets', 'Widget') });
  if (made.status !== 201) throw new Error(`CRD: ${made.text}`);
  await waitFor(server, widgetTarget.path);
  const probe = await server.request('POST', widgetTarget.path, {
    body: { ...widgetTarget.object, metadata: { name: 'probe' } },
  });
  if (probe.status !== 201) throw new Error(`a widget is refused: ${probe.text}`);
  const refused = await server.request('POST', widgetTarget.path, {
    body: {
      ...widgetTarget.object,
      metadata: { name: 'bad' },
      spec: { ...(widgetTarget.object.spec as object), size: 5000 },
    },
  });
  if (refused.status !== 422)
    throw new Error(`the CEL rules are not applied: ${refused.status} ${refused.text}`);
  const tls = { ca: server.ca };
  const phase = (i: number, target: LoadTarget) => {
    process.env.BENCH_OFFSET = String(i * 10_000_000);
    return loadFrom(server.url, server.token, tls, server.pid, postmaster, target);
  };
  const c1 = await phase(0, configMapTarget);
  const w1 = await phase(1, widgetTarget);
  const w2 = await phase(2, widgetTarget);
  const c2 = await phase(3, configMapTarget);
  await server.stop();
  await db.stop();
  const cm = (c1.rate + c2.rate) / 2;
  const cr = (w1.rate + w2.rate) / 2;
  console.log(
    `phases (ABBA: ConfigMap, Widget, Widget, ConfigMap): ${[c1, w1, w2, c2].map((p) => p.rate.toFixed(0)).join(' ')}`,
  );
  console.log(`ConfigMap creates/s: ${cm.toFixed(0)} (errors: ${c1.errors + c2.errors}); ${cpuLine(c1.cpu)}`);
  console.log(
    `custom resource (10 CEL rules) creates/s: ${cr.toFixed(0)} (errors: ${w1.errors + w2.errors}); ${cpuLine(w1.cpu)}`,
  );
  console.log(`ratio custom resource / ConfigMap: ${(cr / cm).toFixed(2)} (target >= 0.8)`);
}

async function servedOnSecondReplica(): Promise<void> {
  const db = await benchDatabase('bench_crd_replicas');
  const a = await startServer({ databaseUrl: db.url });
  const b = await startServer({ databaseUrl: db.url });
  const latencies: number[] = [];
  for (let i = 0; i < CRDS; i++) {
    const plural = `gauges${i}s`;
    const started = performance.now();
    const made = await a.request('POST', CRD_PATH, { body: widgetCrd(plural, `Gauge${i}`) });
    if (made.status !== 201) throw new Error(`CRD ${i}: ${made.text}`);
    await waitFor(b, `/apis/${GROUP}/v1/${plural}`);
    latencies.push(performance.now() - started);
  }
  await a.stop();
  await b.stop();
  await db.stop();
  if (process.env.BENCH_VERBOSE) console.log(latencies.map((l) => l.toFixed(0)).join(' '));
  const sorted = [...latencies].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  console.log(
    `CRD create on replica A → served by replica B, ${CRDS} CRDs: p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms (target p99 < 1000 ms)`,
  );
}

const PART = arg('part', 'both');
if (PART !== 'served') await creates();
if (PART !== 'creates') await servedOnSecondReplica();
