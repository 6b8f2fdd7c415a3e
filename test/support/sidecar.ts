/**
 * A sidecar in front of an upstream on one machine, for the sidecar e2e and bench: the upstream is a standalone
 * pgkube standing in for the cluster; the sidecar serves widgets.example.com from its own PostgreSQL
 * (`--api-definitions`, builtin APIs off by sidecar mode) and forwards everything else to it
 * (`--upstream-kubeconfig`: the upstream's admin kubeconfig, so authentication and authorization are delegated
 * there too).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { WIDGETS_CRD } from './aggregation.js';
import { testDatabase, type TestDatabase } from './database.js';
import { startServer, type TestServer } from './server.js';

export interface Sidecar {
  sidecar: TestServer;
  database: TestDatabase;
  /** a kubeconfig for the sidecar's address with the upstream's admin token (the caller's own credential) */
  kubeconfig: string;
  stop(): Promise<void>;
}

/** A kubeconfig for `server` (its URL and CA) with `user` (token, client certificate, ...). */
export async function kubeconfigAt(server: TestServer, user: Record<string, unknown>): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-sidecar-kubeconfig-')), 'config');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'sidecar',
        cluster: {
          server: server.url,
          'certificate-authority-data': Buffer.from(server.ca).toString('base64'),
        },
      },
    ],
    users: [{ name: 'caller', user }],
    contexts: [{ name: 'caller@sidecar', context: { cluster: 'sidecar', user: 'caller' } }],
    'current-context': 'caller@sidecar',
  };
  await writeFile(file, stringify(config), { mode: 0o600 });
  return file;
}

/**
 * Starts a sidecar in front of the upstream its kubeconfig names (for a pgkube upstream: its admin kubeconfig);
 * the callers' kubeconfig carries `token`.
 */
export async function startSidecar(
  upstream: { kubeconfig: string; token: string },
  args: string[] = [],
): Promise<Sidecar> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-sidecar-'));
  const definitions = path.join(dir, 'widgets.yaml');
  await writeFile(definitions, stringify(WIDGETS_CRD));
  const database = await testDatabase();
  const sidecar = await startServer({
    databaseUrl: database.url,
    args: [`--api-definitions=${definitions}`, `--upstream-kubeconfig=${upstream.kubeconfig}`, ...args],
  });
  return {
    sidecar,
    database,
    kubeconfig: await kubeconfigAt(sidecar, { token: upstream.token }),
    async stop() {
      await sidecar.stop();
      await database.drop();
    },
  };
}
