/**
 * charts/pgkube installed by the real helm into a live pgkube standing in for the cluster: `helm install`,
 * `upgrade`, `rollback` and `uninstall` with ci/registration-only-values.yaml, the values that render only kinds
 * pgkube serves (ServiceAccount, Service, Secret, ConfigMap, RBAC, APIService; pgkube serves no Deployment,
 * StatefulSet, PodDisruptionBudget, NetworkPolicy or ServiceMonitor). In between, a second pgkube plays the
 * chart's Deployment: it is started with the installed Secret (serving certificate), ConfigMap (api-definitions)
 * and a token of the installed ServiceAccount, and reached through the installed Service, made an ExternalName for
 * localhost (`service.externalName`: Endpoints may not name loopback addresses, and there is no cluster network). The host's APIService becomes Available, so the chart's caBundle, certificate
 * names and delegation RBAC are right, and widgets are served through the host.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { freePort, hostKubeconfig } from './support/aggregation.js';
import { chartDir } from './support/chart.js';
import { testDatabase, type TestDatabase } from './support/database.js';
import { eventually } from './support/eventually.js';
import { helm, kubectl } from './support/kubectl.js';
import { startServer, type TestServer } from './support/server.js';
import { useServer } from './support/use-server.js';

const NS = 'pgkube';
const RELEASE = 'pgkube';
const APISERVICE = 'v1alpha1.widgets.example.com';
const VALUES = path.join(chartDir, 'ci', 'registration-only-values.yaml');

describe('charts/pgkube against a live pgkube: install, upgrade, rollback, uninstall', () => {
  const host = useServer();
  let dir: string;
  let backend: TestServer | undefined;
  let backendDb: TestDatabase | undefined;

  const h = async (args: string[]) => {
    const r = await helm(args, { kubeconfig: host.kubeconfig, timeoutMs: 60_000 });
    assert.equal(r.code, 0, `helm ${args.join(' ')}:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };
  const k = async (args: string[]) => {
    const r = await kubectl(args, { kubeconfig: host.kubeconfig });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
  };
  const get = async (p: string) => (await host.request('GET', p)).json;
  const apiService = () => get(`/apis/apiregistration.k8s.io/v1/apiservices/${APISERVICE}`);
  const available = async () =>
    ((await apiService()).status?.conditions ?? []).find((c: { type: string }) => c.type === 'Available');
  const tlsSecret = () => get(`/api/v1/namespaces/${NS}/secrets/pgkube-tls`);

  let port: number;
  /** the Service is an ExternalName for this machine, where the test runs the backend on `port` */
  const serviceValues = () => ['--set', 'service.externalName=localhost', '--set', `service.port=${port}`];
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pgkube-chart-e2e-'));
    port = await freePort();
    await k(['create', 'namespace', NS]);
  });

  after(async () => {
    await backend?.stop();
    await backendDb?.drop();
  });

  let installedCa: string;

  it('helm install: every object of the chart is made', async () => {
    const out = await h([
      'install',
      RELEASE,
      chartDir,
      '--namespace',
      NS,
      '--values',
      VALUES,
      ...serviceValues(),
    ]);
    assert.match(out, /STATUS: deployed/);
    assert.match(out, /kubectl get apiservice v1alpha1\.widgets\.example\.com/, 'NOTES say how to check it');
    const manifest = await h(['get', 'manifest', RELEASE, '--namespace', NS]);
    const kinds = [...manifest.matchAll(/^kind: (\w+)$/gm)].map((m) => m[1]).sort();
    assert.deepEqual(kinds, [
      'APIService',
      'ClusterRole',
      'ClusterRoleBinding',
      'ClusterRoleBinding',
      'ConfigMap',
      'RoleBinding',
      'Secret',
      'Service',
      'ServiceAccount',
    ]);
    const a = await apiService();
    assert.equal(a.spec.service.name, 'pgkube');
    const secret = await tlsSecret();
    installedCa = secret.data['ca.crt'];
    assert.equal(a.spec.caBundle, installedCa);
    assert.equal((await get(`/api/v1/namespaces/${NS}/serviceaccounts/pgkube`)).metadata.name, 'pgkube');
    const binding = await get(
      '/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/rolebindings/pgkube:extension-apiserver-authentication-reader',
    );
    assert.equal(binding.roleRef.name, 'extension-apiserver-authentication-reader');
  });

  it('a pgkube started as the chart says becomes the Available backend of the APIService', async () => {
    // what the Deployment would mount: the TLS Secret, the api-definitions ConfigMap, and the pod's token
    const secret = await tlsSecret();
    const files = {
      cert: path.join(dir, 'tls.crt'),
      key: path.join(dir, 'tls.key'),
      definitions: path.join(dir, 'api-definitions'),
      kubeconfig: path.join(dir, 'host.kubeconfig'),
    };
    await writeFile(files.cert, Buffer.from(secret.data['tls.crt'], 'base64'));
    await writeFile(files.key, Buffer.from(secret.data['tls.key'], 'base64'), { mode: 0o600 });
    const definitions = await get(`/api/v1/namespaces/${NS}/configmaps/pgkube-api-definitions`);
    await mkdir(files.definitions);
    for (const [name, text] of Object.entries<string>(definitions.data))
      await writeFile(path.join(files.definitions, name), text);
    const token = (await k(['create', 'token', 'pgkube', '--namespace', NS])).trim();
    await writeFile(files.kubeconfig, hostKubeconfig(host, token), { mode: 0o600 });

    backendDb = await testDatabase();
    backend = await startServer({
      databaseUrl: backendDb.url,
      args: [
        `--secure-port=${port}`,
        '--builtin-apis=false',
        `--api-definitions=${files.definitions}`,
        `--tls-cert-file=${files.cert}`,
        `--tls-private-key-file=${files.key}`,
        `--authentication-kubeconfig=${files.kubeconfig}`,
        `--authorization-kubeconfig=${files.kubeconfig}`,
      ],
    });
    await eventually(
      async () => (await available())?.status === 'True',
      'the APIService becomes Available',
      30_000,
    );
    // widgets through the host: authorized by the host's SubjectAccessReview (the chart's auth-delegator binding)
    const widget = {
      apiVersion: 'widgets.example.com/v1alpha1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { size: 3 },
    };
    const r = await kubectl(['apply', '-f', '-'], { kubeconfig: host.kubeconfig, input: stringify(widget) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await k(['get', 'widgets', 'w1', '-o', 'name'])).trim(), 'widget.widgets.example.com/w1');
  });

  it('helm upgrade: changed values are applied, the generated certificate is kept', async () => {
    const out = await h([
      'upgrade',
      RELEASE,
      chartDir,
      '--namespace',
      NS,
      '--values',
      VALUES,
      '--set',
      'apiService.versionPriority=20',
      ...serviceValues(),
    ]);
    assert.match(out, /REVISION: 2/);
    const a = await apiService();
    assert.equal(a.spec.versionPriority, 20);
    assert.equal((await tlsSecret()).data['ca.crt'], installedCa, 'lookup kept the CA');
    assert.equal(a.spec.caBundle, installedCa);
    await eventually(async () => (await available())?.status === 'True', 'still Available', 30_000);
  });

  it('helm rollback: the first revision again', async () => {
    await h(['rollback', RELEASE, '1', '--namespace', NS]);
    assert.equal((await apiService()).spec.versionPriority, 15);
    const history = await h(['history', RELEASE, '--namespace', NS, '-o', 'json']);
    assert.deepEqual(
      JSON.parse(history).map((r: { revision: number; status: string }) => [r.revision, r.status]),
      [
        [1, 'superseded'],
        [2, 'superseded'],
        [3, 'deployed'],
      ],
    );
    assert.equal((await tlsSecret()).data['ca.crt'], installedCa);
  });

  it('helm uninstall: every object of the release is gone', async () => {
    await h(['uninstall', RELEASE, '--namespace', NS, '--wait']);
    for (const p of [
      `/apis/apiregistration.k8s.io/v1/apiservices/${APISERVICE}`,
      `/api/v1/namespaces/${NS}/secrets/pgkube-tls`,
      `/api/v1/namespaces/${NS}/services/pgkube`,
      `/api/v1/namespaces/${NS}/serviceaccounts/pgkube`,
      `/api/v1/namespaces/${NS}/configmaps/pgkube-api-definitions`,
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/pgkube:system:auth-delegator',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/rolebindings/pgkube:extension-apiserver-authentication-reader',
    ])
      await eventually(async () => (await host.request('GET', p)).status === 404, `${p} deleted`);
    assert.doesNotMatch(await h(['list', '--namespace', NS, '-q']), /pgkube/);
  });
});
