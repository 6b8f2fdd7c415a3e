/**
 * bench/create-rbac: bench/create's load (1 KB ConfigMap creates over HTTPS, 8 keep-alive clients) by a caller
 * RBAC allows through one RoleBinding among 10,000 roles and bindings, against a system:masters caller (who
 * is allowed before RBAC is asked) on the same server in the same run. The ratio is the cost of RBAC.
 *
 *   npm run build && node dist/bench/create-rbac.js [--seconds=10] [--database-url=…] [--objects=10000]
 */
import { startServer, type TestServer } from '../test/support/server.js';
import { cpuLine, loadFrom, postmasterOf } from './create.js';
import { arg, benchDatabase } from './support.js';

const OBJECTS = Number(arg('objects', '10000'));
const RBAC = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
const roleRef = (name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name });

async function post(server: TestServer, path: string, body: object): Promise<void> {
  const r = await server.request('POST', path, { body });
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
}

/** OBJECTS/2 roles and as many bindings to other users, in the namespace the load writes to. */
async function crowd(server: TestServer): Promise<void> {
  const pairs = Math.floor(OBJECTS / 2);
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < pairs; i = next++) {
        const name = `crowd-${i}`;
        await post(server, `${RBAC}/roles`, {
          metadata: { name },
          rules: [
            { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: [name] },
          ],
        });
        await post(server, `${RBAC}/rolebindings`, {
          metadata: { name },
          roleRef: roleRef(name),
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: `user-${i}` }],
        });
      }
    }),
  );
}

/** A service account allowed to create configmaps in default by one Role and RoleBinding; its token. */
async function boundCaller(server: TestServer): Promise<string> {
  await post(server, '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'bench' } });
  await post(server, `${RBAC}/roles`, {
    metadata: { name: 'bench' },
    rules: [{ verbs: ['create'], apiGroups: [''], resources: ['configmaps'] }],
  });
  await post(server, `${RBAC}/rolebindings`, {
    metadata: { name: 'bench' },
    roleRef: roleRef('bench'),
    subjects: [{ kind: 'ServiceAccount', name: 'bench', namespace: 'default' }],
  });
  const r = await server.request('POST', '/api/v1/namespaces/default/serviceaccounts/bench/token', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
  });
  if (r.status !== 201) throw new Error(`token request: ${r.text}`);
  return r.json.status.token as string;
}

async function main() {
  const db = await benchDatabase('bench_rbac');
  const postmaster = await postmasterOf(db.url);
  const server = await startServer({ databaseUrl: db.url });
  const started = Date.now();
  await crowd(server);
  console.log(`${OBJECTS} roles and bindings made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const token = await boundCaller(server);
  const tls = { ca: server.ca };
  const masters = await loadFrom(server.url, server.token, tls, server.pid, postmaster);
  // the second phase's ConfigMaps get other names
  process.env.BENCH_OFFSET = '10000000';
  const rbac = await loadFrom(server.url, token, tls, server.pid, postmaster);
  await server.stop();
  await db.stop();
  console.log(`system:masters caller: ${masters.rate.toFixed(0)} creates/s (errors: ${masters.errors})`);
  console.log(`  ${cpuLine(masters.cpu)}`);
  console.log(
    `RBAC caller (a RoleBinding among ${OBJECTS} roles and bindings): ${rbac.rate.toFixed(0)} creates/s (errors: ${rbac.errors})`,
  );
  console.log(`  ${cpuLine(rbac.cpu)}`);
  console.log(`ratio RBAC / system:masters: ${(rbac.rate / masters.rate).toFixed(2)} (target >= 0.95)`);
}

await main();
