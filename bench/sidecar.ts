/**
 * bench/sidecar, issue 19's target: what the sidecar adds. An upstream pgkube (standing in for the cluster) and
 * a sidecar in front of it on this machine, set up as the sidecar e2e does (the sidecar serves widgets.example.com,
 * everything else goes upstream with the caller's own token); the upstream's admin asks
 *
 * 1. GET of one ConfigMap, one request at a time over a kept-alive HTTPS connection, through the sidecar and
 *    straight to the upstream, in interleaved blocks. Target: p50 through the sidecar − p50 upstream ≤ 1 ms.
 * 2. Watch-event latency: a ConfigMap watch through the sidecar and one straight to the upstream, open together;
 *    ConfigMaps created upstream one at a time; for each, the time from the create until each watch delivers it.
 *
 *   npm run build && node dist/bench/sidecar.js [--gets=4000] [--events=300]
 */
import { Agent, request } from 'node:https';
import { startServer, type TestServer } from '../test/support/server.js';
import { startSidecar } from '../test/support/sidecar.js';
import { arg } from './support.js';

const GETS = Number(arg('gets', '4000'));
const EVENTS = Number(arg('events', '300'));
const BLOCK = 200;
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v: '1' },
});
let TOKEN = '';

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
  const url = new URL(`${CONFIGMAPS}?watch=1&resourceVersion=${resourceVersion}`, server.url);
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
  const u = await startServer({});
  TOKEN = u.token;
  const side = await startSidecar(u);
  const s = side.sidecar;
  try {
    const created = await u.request('POST', CONFIGMAPS, { body: configMap('c1') });
    if (created.status !== 201) throw new Error(created.text);

    // 1. GETs, interleaved blocks
    const agents = {
      s: new Agent({ keepAlive: true, maxSockets: 1 }),
      u: new Agent({ keepAlive: true, maxSockets: 1 }),
    };
    const samples: Record<'s' | 'u', number[]> = { s: [], u: [] };
    const target = `${CONFIGMAPS}/c1`;
    for (const who of ['s', 'u'] as const)
      for (let i = 0; i < 100; i++) await get(who === 's' ? s : u, agents[who], target);
    for (let done = 0; done < GETS; done += BLOCK) {
      const order = (done / BLOCK) % 2 === 0 ? (['s', 'u'] as const) : (['u', 's'] as const);
      for (const who of order)
        for (let i = 0; i < BLOCK; i++)
          samples[who].push(await get(who === 's' ? s : u, agents[who], target));
    }
    const through = summary(samples.s);
    const direct = summary(samples.u);
    console.log(`GET one ConfigMap, ${samples.s.length} each (ms)   p50      p90      p99`);
    console.log(
      `  through the sidecar            ${ms(through.p50)}   ${ms(through.p90)}   ${ms(through.p99)}`,
    );
    console.log(`  straight to the upstream       ${ms(direct.p50)}   ${ms(direct.p90)}   ${ms(direct.p99)}`);
    console.log(
      `  sidecar adds at p50: ${ms(through.p50 - direct.p50)} ms (ratio ${(through.p50 / direct.p50).toFixed(2)})`,
    );

    // 2. watch events
    const rv = (await u.request('GET', CONFIGMAPS)).json.metadata.resourceVersion as string;
    const arrivedS = new Map<string, bigint>();
    const arrivedU = new Map<string, bigint>();
    const stops = [await watch(s, rv, arrivedS), await watch(u, rv, arrivedU)];
    const latency: Record<'s' | 'u', number[]> = { s: [], u: [] };
    for (let i = 0; i < EVENTS; i++) {
      const name = `e${i}`;
      const started = process.hrtime.bigint();
      const r = await u.request('POST', CONFIGMAPS, { body: configMap(name) });
      if (r.status !== 201) throw new Error(r.text);
      while (!arrivedS.has(name) || !arrivedU.has(name)) await new Promise((res) => setImmediate(res));
      latency.s.push(Number(arrivedS.get(name)! - started) / 1e6);
      latency.u.push(Number(arrivedU.get(name)! - started) / 1e6);
    }
    for (const stop of stops) stop();
    const ws = summary(latency.s);
    const wu = summary(latency.u);
    console.log(`watch: create upstream → ADDED delivered, ${EVENTS} events (ms)   p50      p90      p99`);
    console.log(
      `  through the sidecar                              ${ms(ws.p50)}   ${ms(ws.p90)}   ${ms(ws.p99)}`,
    );
    console.log(
      `  straight to the upstream                         ${ms(wu.p50)}   ${ms(wu.p90)}   ${ms(wu.p99)}`,
    );
    console.log(`  sidecar adds at p50: ${ms(ws.p50 - wu.p50)} ms`);
    agents.s.destroy();
    agents.u.destroy();
  } finally {
    await side.stop();
    await u.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
