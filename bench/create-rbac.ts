/**
 * bench/create-rbac: bench/create's load (1 KB ConfigMap creates over HTTPS, 8 keep-alive clients) by a caller
 * RBAC allows through one RoleBinding among 10,000 roles and bindings, against a system:masters caller (who
 * is allowed before RBAC is asked) on the same server in the same run. The ratio is the cost of RBAC.
 *
 * The phases run in ABBA order (masters, RBAC, RBAC, masters): the table grows with every phase, so a fixed
 * order would charge the growth to whichever phase comes last. The RBAC caller is a static-token user
 * (`--caller=token`, the default: RBAC's cost alone) or a service account (`--caller=serviceaccount`: its
 * token's verification too).
 *
 *   npm run build && node dist/bench/create-rbac.js [--seconds=10] [--database-url=…] [--objects=10000]
 *     [--caller=token|serviceaccount]
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../test/support/server.js';
import { cpuLine, loadFrom, postmasterOf } from './create.js';
import { arg, benchDatabase } from './support.js';

const OBJECTS = Number(arg('objects', '10000'));
const CALLER = arg('caller', 'token');
const USER_TOKEN = 'bench-rbac-user-token-0123456789';
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

/** The caller allowed to create configmaps in default by one Role and RoleBinding; its token. */
async function boundCaller(server: TestServer): Promise<string> {
  await post(server, `${RBAC}/roles`, {
    metadata: { name: 'bench' },
    rules: [{ verbs: ['create'], apiGroups: [''], resources: ['configmaps'] }],
  });
  if (CALLER === 'token') {
    await post(server, `${RBAC}/rolebindings`, {
      metadata: { name: 'bench' },
      roleRef: roleRef('bench'),
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bench-user' }],
    });
    return USER_TOKEN;
  }
  await post(server, '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'bench' } });
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
  const tokens = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-bench-rbac-')), 'tokens.csv');
  await writeFile(tokens, `${USER_TOKEN},bench-user,uid-bench,""\n`, { mode: 0o600 });
  const server = await startServer({ databaseUrl: db.url, args: [`--token-auth-file=${tokens}`] });
  const started = Date.now();
  await crowd(server);
  console.log(`${OBJECTS} roles and bindings made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const token = await boundCaller(server);
  const tls = { ca: server.ca };
  // ABBA; each phase's ConfigMaps get names of their own
  const phase = async (i: number, bearer: string) => {
    process.env.BENCH_OFFSET = String(i * 10_000_000);
    return loadFrom(server.url, bearer, tls, server.pid, postmaster);
  };
  const m1 = await phase(0, server.token);
  const r1 = await phase(1, token);
  const r2 = await phase(2, token);
  const m2 = await phase(3, server.token);
  const masters = { ...m1, rate: (m1.rate + m2.rate) / 2, errors: m1.errors + m2.errors };
  const rbac = { ...r1, rate: (r1.rate + r2.rate) / 2, errors: r1.errors + r2.errors };
  await server.stop();
  await db.stop();
  console.log(`system:masters caller: ${masters.rate.toFixed(0)} creates/s (errors: ${masters.errors})`);
  console.log(`  ${cpuLine(masters.cpu)}`);
  console.log(`  phases (ABBA): ${[m1, r1, r2, m2].map((p) => p.rate.toFixed(0)).join(' ')}`);
  console.log(
    `RBAC caller (${CALLER === 'token' ? 'a static-token user' : 'a service account'}, a RoleBinding among ${OBJECTS} roles and bindings): ${rbac.rate.toFixed(0)} creates/s (errors: ${rbac.errors})`,
  );
  console.log(`  ${cpuLine(rbac.cpu)}`);
  console.log(`ratio RBAC / system:masters: ${(rbac.rate / masters.rate).toFixed(2)} (target >= 0.95)`);
}

await main();
