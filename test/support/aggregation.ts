/**
 * An aggregated pair on one machine, for the aggregation e2e and bench: B serves widgets.example.com from its
 * own PostgreSQL with --builtin-apis=false, delegates to host A and registers its APIService there; its Service in
 * A is an ExternalName for localhost on B's port.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { testDatabase, type TestDatabase } from './database.js';
import { grant, group, user } from './rbac.js';
import { startServer, type TestServer } from './server.js';

export const APISERVICE = 'v1alpha1.widgets.example.com';
export const WIDGETS = '/apis/widgets.example.com/v1alpha1/namespaces/default/widgets';

/** A's users: B's own identity in A, alice (may do anything with widgets), bob (nothing), carol (by her group) */
const TOKENS = [
  'registrar-token,system:pgkube-widgets,uid-widgets',
  'alice-token,alice,uid-alice,"widget-makers"',
  'bob-token,bob,uid-bob',
  'carol-token,carol,uid-carol,"widget-makers"',
].join('\n');

export async function hostTokenFile(dir: string): Promise<string> {
  const file = path.join(dir, 'tokens.csv');
  await writeFile(file, TOKENS, { mode: 0o600 });
  return file;
}

export const WIDGETS_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.widgets.example.com' },
  spec: {
    group: 'widgets.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: 'A widget made in PostgreSQL.',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  size: { type: 'integer', minimum: 1, description: 'How big the widget is.' },
                  color: { type: 'string' },
                },
              },
            },
          },
        },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
      },
    ],
  },
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A kubeconfig of host A for the user of `token` (what a delegating or registering server is given). */
export function hostKubeconfig(a: TestServer, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'a',
        cluster: { server: a.url, 'certificate-authority-data': Buffer.from(a.ca).toString('base64') },
      },
    ],
    users: [{ name: 'widgets', user: { token } }],
    contexts: [{ name: 'widgets@a', context: { cluster: 'a', user: 'widgets' } }],
    'current-context': 'widgets@a',
  });
}

export const widget = (name: string, size: number) => ({
  apiVersion: 'widgets.example.com/v1alpha1',
  kind: 'Widget',
  metadata: { name, namespace: 'default' },
  spec: { size },
});

export interface WidgetsBackend {
  b: TestServer;
  /** to start B again as it was */
  bArgs: string[];
  dataDir: string;
  database: TestDatabase;
}

/** Grants in A what B needs and alice's widgets, makes B's Service in A, and starts B. */
export async function startWidgetsBackend(a: TestServer, dir: string): Promise<WidgetsBackend> {
  // what kube's aggregated servers are given in their host: delegation, and here self-registration
  await grant(
    a,
    'pgkube-widgets',
    [user('system:pgkube-widgets')],
    [
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'] },
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'] },
      {
        verbs: ['get', 'list', 'watch'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['extension-apiserver-authentication'],
      },
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'] },
      {
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
        apiGroups: ['apiregistration.k8s.io'],
        resources: ['apiservices'],
      },
    ],
  );
  await grant(
    a,
    'widget-maker',
    [user('alice')],
    [{ verbs: ['*'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }],
  );
  await grant(
    a,
    'widget-readers',
    [group('widget-makers')],
    [{ verbs: ['get', 'list'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }],
  );
  const port = await freePort();
  const ns = await a.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'pgkube' } } });
  assert.equal(ns.status, 201, ns.text);
  const service = await a.request('POST', '/api/v1/namespaces/pgkube/services', {
    body: {
      metadata: { name: 'widgets-api' },
      spec: { type: 'ExternalName', externalName: 'localhost', ports: [{ name: 'https', port }] },
    },
  });
  assert.equal(service.status, 201, service.text);
  const kubeconfig = path.join(dir, 'host.kubeconfig');
  await writeFile(kubeconfig, hostKubeconfig(a, 'registrar-token'), { mode: 0o600 });
  const definitions = path.join(dir, 'widgets.yaml');
  await writeFile(definitions, stringify(WIDGETS_CRD));
  const database = await testDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pgkube-aggregated-'));
  const bArgs = [
    `--secure-port=${port}`,
    '--builtin-apis=false',
    `--api-definitions=${definitions}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    `--apiservice-kubeconfig=${kubeconfig}`,
    `--apiservice-service=pgkube/widgets-api:${port}`,
    '--tls-san=widgets-api.pgkube.svc',
  ];
  const b = await startServer({ databaseUrl: database.url, dataDir, args: bArgs });
  return { b, bArgs, dataDir, database };
}
