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
import { startServer } from '../test/support/server.js';
import { startSidecar } from '../test/support/sidecar.js';
import { compareGets, compareWatchEvents, type Route } from './proxy-latency.js';
import { arg } from './support.js';

const GETS = Number(arg('gets', '4000'));
const EVENTS = Number(arg('events', '300'));
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v: '1' },
});
async function main(): Promise<void> {
  const u = await startServer({});
  const side = await startSidecar(u);
  try {
    const created = await u.request('POST', CONFIGMAPS, { body: configMap('c1') });
    if (created.status !== 201) throw new Error(created.text);
    const via: Route = { label: 'through the sidecar', server: side.sidecar, token: u.token };
    const straight: Route = { label: 'straight to the upstream', server: u, token: u.token };
    await compareGets(via, straight, `${CONFIGMAPS}/c1`, GETS);
    const rv = (await u.request('GET', CONFIGMAPS)).json.metadata.resourceVersion as string;
    await compareWatchEvents(
      via,
      straight,
      CONFIGMAPS,
      rv,
      async (name) => {
        const r = await u.request('POST', CONFIGMAPS, { body: configMap(name) });
        if (r.status !== 201) throw new Error(r.text);
      },
      EVENTS,
    );
  } finally {
    await side.stop();
    await u.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
