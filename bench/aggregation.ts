/**
 * bench/aggregation, issue 18's target: what the host's proxy adds. Host A and aggregated server B on this
 * machine, set up as the aggregation e2e does (B serves widgets.example.com, delegates to A, registers its
 * APIService); the same user (alice, a token A knows) asks
 *
 * 1. GET of one widget, one request at a time over a kept-alive HTTPS connection, through A and straight to B, in
 *    interleaved blocks. Target: p50 through A − p50 at B ≤ 1 ms.
 * 2. Watch-event latency: a watch through A and one straight to B, open together; widgets created at B one at a
 *    time; for each, the time from the create until each watch delivers its ADDED event.
 *
 *   npm run build && node dist/bench/aggregation.js [--gets=4000] [--events=300]
 */
import { mkdtemp } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  APISERVICE,
  hostTokenFile,
  startWidgetsBackend,
  widget,
  WIDGETS,
} from '../test/support/aggregation.js';
import { startServer, type TestServer } from '../test/support/server.js';
import { arg } from './support.js';

const GETS = Number(arg('gets', '4000'));
const EVENTS = Number(arg('events', '300'));
const BLOCK = 200;
const TOKEN = 'alice-token';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples: number[]): { p50: number; p90: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99) };
}

const ms = (n: number) => n.toFixed(3);

function get(server: TestServer, agent: Agent, path: string): Promise<number> {
  const url = new URL(path, server.url);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent, ca: server.ca, headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } },
      (res) => {
        res.resume();
        res.once('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`GET ${url}: ${res.statusCode}`));
          resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      },
    );
    req.once('error', reject);
    req.end();
  });
}

/** A watch whose ADDED events are timed by name as they arrive. */
function watch(
  server: TestServer,
  resourceVersion: string,
  arrived: Map<string, bigint>,
): Promise<() => void> {
  const url = new URL(`${WIDGETS}?watch=1&resourceVersion=${resourceVersion}`, server.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { ca: server.ca, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`watch ${url}: ${res.statusCode}`));
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const event = JSON.parse(buffered.slice(0, nl)) as {
            type: string;
            object: { metadata: { name: string } };
          };
          buffered = buffered.slice(nl + 1);
          if (event.type === 'ADDED') arrived.set(event.object.metadata.name, process.hrtime.bigint());
        }
      });
      resolve(() => req.destroy());
    });
    req.once('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-bench-aggregation-'));
  const a = await startServer({ args: [`--token-auth-file=${await hostTokenFile(dir)}`] });
  const { b, database } = await startWidgetsBackend(a, dir);
  try {
    const apiService = `/apis/apiregistration.k8s.io/v1/apiservices/${APISERVICE}`;
    for (let i = 0; ; i++) {
      const conditions = (await a.request('GET', apiService)).json.status?.conditions ?? [];
      if (
        conditions.some(
          (c: { type: string; status: string }) => c.type === 'Available' && c.status === 'True',
        )
      )
        break;
      if (i > 300) throw new Error('the APIService did not become Available');
      await new Promise((r) => setTimeout(r, 100));
    }
    const created = await b.request('POST', WIDGETS, { body: widget('w1', 1) });
    if (created.status !== 201) throw new Error(created.text);

    // 1. GETs, interleaved blocks
    const agents = {
      a: new Agent({ keepAlive: true, maxSockets: 1 }),
      b: new Agent({ keepAlive: true, maxSockets: 1 }),
    };
    const samples: Record<'a' | 'b', number[]> = { a: [], b: [] };
    const target = `${WIDGETS}/w1`;
    for (const who of ['a', 'b'] as const)
      for (let i = 0; i < 100; i++) await get(who === 'a' ? a : b, agents[who], target);
    for (let done = 0; done < GETS; done += BLOCK) {
      const order = (done / BLOCK) % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
      for (const who of order)
        for (let i = 0; i < BLOCK; i++)
          samples[who].push(await get(who === 'a' ? a : b, agents[who], target));
    }
    const throughA = summary(samples.a);
    const atB = summary(samples.b);
    console.log(`GET one widget, ${samples.a.length} each (ms)   p50      p90      p99`);
    console.log(
      `  through A (proxied)          ${ms(throughA.p50)}   ${ms(throughA.p90)}   ${ms(throughA.p99)}`,
    );
    console.log(`  straight to B                ${ms(atB.p50)}   ${ms(atB.p90)}   ${ms(atB.p99)}`);
    console.log(
      `  proxy adds at p50: ${ms(throughA.p50 - atB.p50)} ms (ratio ${(throughA.p50 / atB.p50).toFixed(2)})`,
    );

    // 2. watch events
    const rv = (await b.request('GET', WIDGETS)).json.metadata.resourceVersion as string;
    const arrivedA = new Map<string, bigint>();
    const arrivedB = new Map<string, bigint>();
    const stops = [await watch(a, rv, arrivedA), await watch(b, rv, arrivedB)];
    const latency: Record<'a' | 'b', number[]> = { a: [], b: [] };
    for (let i = 0; i < EVENTS; i++) {
      const name = `e${i}`;
      const started = process.hrtime.bigint();
      const r = await b.request('POST', WIDGETS, { body: widget(name, 1) });
      if (r.status !== 201) throw new Error(r.text);
      while (!arrivedA.has(name) || !arrivedB.has(name)) await new Promise((res) => setImmediate(res));
      latency.a.push(Number(arrivedA.get(name)! - started) / 1e6);
      latency.b.push(Number(arrivedB.get(name)! - started) / 1e6);
    }
    for (const stop of stops) stop();
    const wa = summary(latency.a);
    const wb = summary(latency.b);
    console.log(`watch: create at B → ADDED delivered, ${EVENTS} events (ms)   p50      p90      p99`);
    console.log(
      `  through A (proxied)                          ${ms(wa.p50)}   ${ms(wa.p90)}   ${ms(wa.p99)}`,
    );
    console.log(
      `  straight to B                                ${ms(wb.p50)}   ${ms(wb.p90)}   ${ms(wb.p99)}`,
    );
    console.log(`  proxy adds at p50: ${ms(wa.p50 - wb.p50)} ms`);
    agents.a.destroy();
    agents.b.destroy();
  } finally {
    await b.stop();
    await a.stop();
    await database.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
