/**
 * What a server in the path adds (the aggregation host's proxy, the sidecar): the same requests through it and
 * straight to the server behind it, in one run. GETs one at a time over one kept-alive HTTPS connection each, in
 * interleaved blocks; watch events timed from the create until each of two watches, open together, delivers it.
 * Prints p50/p90/p99 of both and the difference at p50.
 */
import { Agent, request } from 'node:https';
import type { TestServer } from '../test/support/server.js';

const BLOCK = 200;
const WARM_UP = 100;

/** where requests go, and as whom */
export interface Route {
  label: string;
  server: TestServer;
  token: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples: number[]): { p50: number; p90: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99) };
}

const ms = (n: number) => n.toFixed(3);

function report(title: string, via: Route, straight: Route, a: number[], b: number[]): void {
  const through = summary(a);
  const direct = summary(b);
  const width = Math.max(via.label.length, straight.label.length) + 2;
  console.log(`${title} (ms)`.padEnd(width + 2) + '   p50      p90      p99');
  for (const [label, s] of [
    [via.label, through],
    [straight.label, direct],
  ] as const)
    console.log(`  ${label.padEnd(width)} ${ms(s.p50)}   ${ms(s.p90)}   ${ms(s.p99)}`);
  console.log(
    `  adds at p50: ${ms(through.p50 - direct.p50)} ms (ratio ${(through.p50 / direct.p50).toFixed(2)})`,
  );
}

function get(route: Route, agent: Agent, path: string): Promise<number> {
  const url = new URL(path, route.server.url);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        ca: route.server.ca,
        headers: { authorization: `Bearer ${route.token}`, accept: 'application/json' },
      },
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

/** GET `path` `gets` times each way, in interleaved blocks (order alternating), after a warm-up. */
export async function compareGets(via: Route, straight: Route, path: string, gets: number): Promise<void> {
  const routes = [via, straight];
  const agents = routes.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const samples: number[][] = [[], []];
  for (const i of [0, 1]) for (let n = 0; n < WARM_UP; n++) await get(routes[i], agents[i], path);
  for (let done = 0; done < gets; done += BLOCK) {
    const order = (done / BLOCK) % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order)
      for (let n = 0; n < BLOCK; n++) samples[i].push(await get(routes[i], agents[i], path));
  }
  for (const agent of agents) agent.destroy();
  report(`GET ${path}, ${samples[0].length} each`, via, straight, samples[0], samples[1]);
}

/** A watch of `collection` whose ADDED events are timed by name as they arrive. */
function watch(
  route: Route,
  collection: string,
  rv: string,
  arrived: Map<string, bigint>,
): Promise<() => void> {
  const url = new URL(`${collection}?watch=1&resourceVersion=${rv}`, route.server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { ca: route.server.ca, headers: { authorization: `Bearer ${route.token}` } },
      (res) => {
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
      },
    );
    req.once('error', reject);
    req.end();
  });
}

/**
 * `events` objects made one at a time by `create` (at the server behind), each timed until both watches of
 * `collection` (from revision `rv`) delivered it.
 */
export async function compareWatchEvents(
  via: Route,
  straight: Route,
  collection: string,
  rv: string,
  create: (name: string) => Promise<void>,
  events: number,
): Promise<void> {
  const arrived = [new Map<string, bigint>(), new Map<string, bigint>()];
  const stops = [
    await watch(via, collection, rv, arrived[0]),
    await watch(straight, collection, rv, arrived[1]),
  ];
  const latency: number[][] = [[], []];
  for (let i = 0; i < events; i++) {
    const name = `e${i}`;
    const started = process.hrtime.bigint();
    await create(name);
    while (!arrived.every((a) => a.has(name))) await new Promise((r) => setImmediate(r));
    for (const w of [0, 1]) latency[w].push(Number(arrived[w].get(name)! - started) / 1e6);
  }
  for (const stop of stops) stop();
  report(`watch: create → ADDED delivered, ${events} events`, via, straight, latency[0], latency[1]);
}
