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
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  APISERVICE,
  hostTokenFile,
  startWidgetsBackend,
  widget,
  WIDGETS,
} from '../test/support/aggregation.js';
import { startServer } from '../test/support/server.js';
import { compareGets, compareWatchEvents, type Route } from './proxy-latency.js';
import { arg } from './support.js';

const GETS = Number(arg('gets', '4000'));
const EVENTS = Number(arg('events', '300'));
const TOKEN = 'alice-token';

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
    const via: Route = { label: 'through A (proxied)', server: a, token: TOKEN };
    const straight: Route = { label: 'straight to B', server: b, token: TOKEN };
    await compareGets(via, straight, `${WIDGETS}/w1`, GETS);
    const rv = (await b.request('GET', WIDGETS)).json.metadata.resourceVersion as string;
    await compareWatchEvents(
      via,
      straight,
      WIDGETS,
      rv,
      async (name) => {
        const r = await b.request('POST', WIDGETS, { body: widget(name, 1) });
        if (r.status !== 201) throw new Error(r.text);
      },
      EVENTS,
    );
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
