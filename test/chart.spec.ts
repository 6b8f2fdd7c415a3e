/**
 * charts/pgkube: `helm lint --strict` and `helm template` with the default values and every ci/*.yaml, what
 * they render (an aggregated pgkube: flags, TLS, APIServices, delegation RBAC), and every rendered manifest
 * validated against Kubernetes v1.32's OpenAPI definitions (test/support/kube-schema.ts; the ServiceMonitor
 * against prometheus-operator's), the kinds pgkube serves also by a live pgkube (`kubectl apply
 * --dry-run=server --validate=strict`: kube's validation too). Also examples/sidecar (`kubectl kustomize`) and
 * the Dockerfile.
 */
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { helm, kubectl } from './support/kubectl.js';
import {
  chartDir,
  isOfflineKind,
  isServed,
  renderChart,
  renderSidecarExample,
  repoRoot,
  validateByServer,
  validateOffline,
  type Manifest,
} from './support/chart.js';
import { useServer } from './support/use-server.js';

const ciFiles = readdirSync(path.join(chartDir, 'ci'))
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => path.join(chartDir, 'ci', f));
/** every values set the chart is checked with: the defaults, then each ci file */
const valueSets: { name: string; files: string[] }[] = [
  { name: 'default values', files: [] },
  ...ciFiles.map((f) => ({ name: `ci/${path.basename(f)}`, files: [f] })),
];

const find = (ms: Manifest[], kind: string, name?: string) =>
  ms.filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
const one = (ms: Manifest[], kind: string, name?: string) => {
  const found = find(ms, kind, name);
  assert.equal(found.length, 1, `one ${kind} ${name ?? ''}: ${found.length}`);
  return found[0];
};
/** The CustomResourceDefinitions in the api-definitions ConfigMap, as manifests. */
const definitionsOf = (ms: Manifest[]) =>
  find(ms, 'ConfigMap', 'pgkube-api-definitions').flatMap((cm) =>
    Object.values<string>(cm.data ?? {}).map((text) => parse(text) as Manifest),
  );
const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
const pems = (bundle: string) =>
  bundle.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];

describe('charts/pgkube', () => {
  let kubeconfig: string;
  const rendered = new Map<string, Manifest[]>();
  before(async () => {
    // helm and kubectl keep their state beside it; template and lint ask no server
    kubeconfig = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-chart-')), 'kubeconfig');
    for (const set of valueSets)
      rendered.set(set.name, await renderChart(kubeconfig, { valuesFiles: set.files }));
  });

  it('ci/ has values files, one of them serving widgets.example.com', () => {
    assert.ok(ciFiles.length >= 2, ciFiles.join());
    const widgets = rendered.get('ci/widgets-values.yaml')!;
    assert.ok(find(widgets, 'APIService').some((a) => a.spec.group === 'widgets.example.com'));
  });

  for (const set of valueSets) {
    it(`helm lint --strict: ${set.name}`, async () => {
      const args = ['lint', '--strict', chartDir, ...set.files.flatMap((f) => ['--values', f])];
      const r = await helm(args, { kubeconfig });
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
    });

    it(`v1.32 schemas: ${set.name}`, async () => {
      const manifests = rendered.get(set.name)!;
      for (const m of manifests) assert.ok(isOfflineKind(m), `${m.kind} has a schema`);
      assert.deepEqual(await validateOffline([...manifests, ...definitionsOf(manifests)]), []);
    });
  }

  it('the offline validation finds unknown fields, wrong types, missing fields and unknown kinds', async () => {
    const ms = rendered.get('ci/widgets-values.yaml')!;
    const deployment = structuredClone(one(ms, 'Deployment'));
    deployment.spec.template.spec.containers[0].livenessProbe.httpGet.sheme = 'HTTPS';
    deployment.spec.replicas = '2';
    const pdb = structuredClone(one(ms, 'PodDisruptionBudget'));
    pdb.spec.maxUnavailable = { one: 1 };
    const monitor = structuredClone(one(ms, 'ServiceMonitor'));
    monitor.spec.endpoints[0].intervall = '1m';
    const statefulSet = structuredClone(one(ms, 'StatefulSet'));
    delete statefulSet.spec.template.spec.containers[0].name;
    statefulSet.spec.template.spec.containers[0].resources = { requests: { memory: '1 GB' } };
    const policy = structuredClone(find(ms, 'NetworkPolicy')[0]);
    policy.spec.ingress = {};
    const service = structuredClone(one(ms, 'Service', 'pgkube'));
    service.spec.ports[0].targetPorts = 'https';
    const unknown = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'x' } };
    const errors = await validateOffline([deployment, pdb, monitor, statefulSet, policy, service, unknown]);
    const about = (prefix: string, pattern: RegExp) =>
      assert.ok(
        errors.some((e) => e.startsWith(prefix) && pattern.test(e)),
        `${prefix} ${pattern}: ${errors.join('\n')}`,
      );
    about('Deployment pgkube/pgkube', /livenessProbe\.httpGet\.sheme: unknown field/);
    about('Deployment pgkube/pgkube', /spec\.replicas: must be an integer, not "2"/);
    about('PodDisruptionBudget pgkube/pgkube', /spec\.maxUnavailable: must be an integer or a string/);
    about('ServiceMonitor pgkube/pgkube', /intervall\W+ does not exist/);
    about('StatefulSet pgkube/pgkube-postgresql', /containers\[0\]\.name: required value/);
    about('StatefulSet pgkube/pgkube-postgresql', /requests\["memory"\]: must be a quantity, not "1 GB"/);
    about('NetworkPolicy pgkube/pgkube', /spec\.ingress: must be a list/);
    about('Service pgkube/pgkube', /spec\.ports\[0\]\.targetPorts: unknown field/);
    about('Thing x', /no v1\.32 schema for example\.com\/v1\/Thing/);
    assert.equal(errors.length, 9, errors.join('\n'));
  });

  it('the schemas are v1.32’s: a field added in v1.33 is unknown, one added in v1.32 is known', async () => {
    const deployment = structuredClone(one(rendered.get('default values')!, 'Deployment'));
    const pod = deployment.spec.template.spec;
    pod.resources = { limits: { cpu: '2' } }; // PodLevelResources, alpha in v1.32
    assert.deepEqual(await validateOffline([deployment]), []);
    pod.containers[0].lifecycle = { stopSignal: 'SIGTERM' }; // ContainerStopSignals, new in v1.33
    assert.deepEqual(await validateOffline([deployment]), [
      'Deployment pgkube/pgkube: spec.template.spec.containers[0].lifecycle.stopSignal: unknown field',
    ]);
  });

  it('the values schema refuses unknown keys and wrong types', async () => {
    for (const set of ['bogus=1', 'replicaCount=two', 'image.pullPolicy=Sometimes', 'securePort=70000']) {
      const r = await helm(['template', 'x', chartDir, '--set', set], { kubeconfig });
      assert.notEqual(r.code, 0, set);
      assert.match(r.stderr, /values don't meet the specifications of the schema/, set);
    }
  });

  it('default values: a working install with TLS generated by Helm and the evaluation PostgreSQL', () => {
    const ms = rendered.get('default values')!;
    const kinds = new Set(ms.map((m) => m.kind));
    for (const kind of ['ServiceAccount', 'Service', 'Secret', 'ConfigMap', 'Deployment', 'StatefulSet'])
      assert.ok(kinds.has(kind), kind);
    for (const kind of ['PodDisruptionBudget', 'ClusterRoleBinding', 'RoleBinding'])
      assert.ok(kinds.has(kind));
    assert.ok(!kinds.has('NetworkPolicy') && !kinds.has('ServiceMonitor') && !kinds.has('APIService'));

    const deployment = one(ms, 'Deployment', 'pgkube');
    const pod = deployment.spec.template.spec;
    const [server] = pod.containers;
    const args: string[] = server.args;
    assert.equal(args[0], 'serve');
    for (const flag of [
      '--builtin-apis=false',
      '--bind-address=0.0.0.0',
      '--secure-port=8443',
      '--tls-cert-file=/etc/pgkube/tls/tls.crt',
      '--tls-private-key-file=/etc/pgkube/tls/tls.key',
      '--api-definitions=/etc/pgkube/api-definitions',
      '--authentication-kubeconfig=/etc/pgkube/host/kubeconfig',
      '--authorization-kubeconfig=/etc/pgkube/host/kubeconfig',
      '--data-dir=/var/lib/pgkube',
    ])
      assert.ok(args.includes(flag), flag);
    assert.ok(!args.some((a) => a.startsWith('--apiservice-')));
    // every mounted path is a volume; the files the flags name are under them
    const volumes = new Map<string, any>(pod.volumes.map((v: any) => [v.name, v]));
    const mounts = new Map<string, string>(server.volumeMounts.map((v: any) => [v.mountPath, v.name]));
    for (const name of mounts.values()) assert.ok(volumes.has(name), name);
    assert.equal(volumes.get(mounts.get('/etc/pgkube/tls')!).secret.secretName, 'pgkube-tls');
    assert.equal(
      volumes.get(mounts.get('/etc/pgkube/api-definitions')!).configMap.name,
      'pgkube-api-definitions',
    );
    assert.equal(volumes.get(mounts.get('/etc/pgkube/host')!).configMap.name, 'pgkube-host');
    assert.ok(volumes.get(mounts.get('/var/lib/pgkube')!).emptyDir);
    assert.ok(volumes.get(mounts.get('/tmp')!).emptyDir);

    // probes over HTTPS on the serving port; non-root, read-only root; replicas apart; rolling update
    assert.deepEqual(server.livenessProbe.httpGet, { path: '/livez', port: 'https', scheme: 'HTTPS' });
    assert.deepEqual(server.readinessProbe.httpGet, { path: '/readyz', port: 'https', scheme: 'HTTPS' });
    assert.deepEqual(server.ports, [{ name: 'https', containerPort: 8443, protocol: 'TCP' }]);
    assert.equal(server.securityContext.readOnlyRootFilesystem, true);
    assert.equal(server.securityContext.allowPrivilegeEscalation, false);
    assert.equal(pod.securityContext.runAsNonRoot, true);
    assert.ok(pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution.length > 0);
    assert.equal(deployment.spec.strategy.type, 'RollingUpdate');
    assert.equal(deployment.spec.replicas, 2);
    assert.ok(server.resources.requests.cpu);

    // the PostgreSQL URL from the evaluation PostgreSQL's Secret, migrated first by an init container
    const urlRef = { name: 'pgkube-postgresql', key: 'url' };
    assert.deepEqual(server.env.find((e: any) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef, urlRef);
    const [migrate] = pod.initContainers;
    assert.deepEqual(migrate.args, ['migrate', '--database-url=$(DATABASE_URL)']);
    assert.deepEqual(migrate.env[0].valueFrom.secretKeyRef, urlRef);
    const pg = one(ms, 'Secret', 'pgkube-postgresql');
    const url = new URL(b64(pg.data.url));
    assert.equal(url.host, 'pgkube-postgresql.pgkube.svc:5432');
    assert.equal(decodeURIComponent(url.password), b64(pg.data.password));
    assert.equal(b64(pg.data.password).length, 32);
    assert.equal(
      one(ms, 'StatefulSet').spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem,
      true,
    );

    // the Service selects the pgkube pods, not PostgreSQL's
    const service = one(ms, 'Service', 'pgkube');
    assert.deepEqual(service.spec.selector, deployment.spec.selector.matchLabels);
    assert.deepEqual(service.spec.ports, [
      { name: 'https', port: 443, targetPort: 'https', protocol: 'TCP' },
    ]);
    const pgPod = one(ms, 'StatefulSet').spec.template.metadata.labels;
    assert.ok(Object.entries(service.spec.selector).some(([k, v]) => pgPod[k] !== v));
    assert.deepEqual(one(ms, 'PodDisruptionBudget').spec.selector, deployment.spec.selector);

    // the host kubeconfig: in-cluster, the pod's token and CA
    const host = parse(one(ms, 'ConfigMap', 'pgkube-host').data.kubeconfig);
    assert.equal(host.clusters[0].cluster.server, 'https://kubernetes.default.svc:443');
    assert.equal(
      host.clusters[0].cluster['certificate-authority'],
      '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
    );
    assert.equal(host.users[0].user.tokenFile, '/var/run/secrets/kubernetes.io/serviceaccount/token');
  });

  it('delegation RBAC: system:auth-delegator, extension-apiserver-authentication-reader in kube-system, get namespaces', () => {
    const ms = rendered.get('default values')!;
    const subject = [{ kind: 'ServiceAccount', name: 'pgkube', namespace: 'pgkube' }];
    const roleRefs = find(ms, 'ClusterRoleBinding').map((b) => {
      assert.deepEqual(b.subjects, subject);
      return b.roleRef.name;
    });
    assert.ok(roleRefs.includes('system:auth-delegator'));
    const reader = one(ms, 'RoleBinding');
    assert.equal(reader.metadata.namespace, 'kube-system');
    assert.deepEqual(reader.roleRef, {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'extension-apiserver-authentication-reader',
    });
    assert.deepEqual(reader.subjects, subject);
    const namespaces = one(ms, 'ClusterRole', 'pgkube:namespace-reader');
    assert.deepEqual(namespaces.rules, [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }]);
    assert.ok(roleRefs.includes('pgkube:namespace-reader'));
    assert.equal(one(ms, 'ServiceAccount').metadata.name, 'pgkube');
  });

  it('generated TLS: a CA and a certificate for the Service names; the APIServices trust that CA', () => {
    const ms = rendered.get('ci/widgets-values.yaml')!;
    const secret = one(ms, 'Secret', 'pgkube-tls');
    assert.equal(secret.type, 'kubernetes.io/tls');
    const ca = new X509Certificate(b64(secret.data['ca.crt']));
    const [leafPem, chainCa] = pems(b64(secret.data['tls.crt']));
    const leaf = new X509Certificate(leafPem!);
    assert.ok(ca.ca && !leaf.ca);
    assert.ok(leaf.verify(ca.publicKey), 'signed by the CA');
    assert.equal(
      new X509Certificate(chainCa!).fingerprint256,
      ca.fingerprint256,
      'the chain ends with the CA',
    );
    for (const name of ['pgkube.pgkube.svc', 'pgkube.pgkube.svc.cluster.local', 'pgkube.pgkube', 'pgkube'])
      assert.ok(leaf.checkHost(name), name);
    const key = createPrivateKey(b64(secret.data['tls.key']));
    assert.equal(
      createPublicKey(key).export({ type: 'spki', format: 'pem' }),
      leaf.publicKey.export({ type: 'spki', format: 'pem' }),
    );

    const apiServices = find(ms, 'APIService');
    assert.deepEqual(apiServices.map((a) => a.metadata.name).sort(), [
      'v1.widgets.example.com',
      'v1alpha1.widgets.example.com',
    ]);
    for (const a of apiServices) {
      assert.equal(a.spec.caBundle, secret.data['ca.crt']);
      assert.deepEqual(a.spec.service, { name: 'pgkube', namespace: 'pgkube', port: 443 });
      assert.equal(a.spec.group, 'widgets.example.com');
      assert.equal(a.metadata.name, `${a.spec.version}.${a.spec.group}`);
      assert.deepEqual([a.spec.groupPriorityMinimum, a.spec.versionPriority], [1000, 15]);
    }
    // a new certificate rolls the pods
    const annotations = one(ms, 'Deployment').spec.template.metadata.annotations;
    assert.match(annotations['checksum/tls'], /^[0-9a-f]{64}$/);
  });

  it('the api-definitions ConfigMap holds the CRDs of the values, one file each', async () => {
    const values = parse(await readFile(path.join(chartDir, 'ci', 'widgets-values.yaml'), 'utf8'));
    const cm = one(rendered.get('ci/widgets-values.yaml')!, 'ConfigMap', 'pgkube-api-definitions');
    assert.deepEqual(Object.keys(cm.data).sort(), [
      'gadgets.widgets.example.com.yaml',
      'widgets.widgets.example.com.yaml',
    ]);
    for (const crd of values.apiDefinitions)
      assert.deepEqual(parse(cm.data[`${crd.metadata.name}.yaml`]), crd);
    // the served resources in the default roles
    const admin = one(rendered.get('ci/widgets-values.yaml')!, 'ClusterRole', 'pgkube:aggregate-to-admin');
    assert.equal(admin.metadata.labels!['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
    assert.deepEqual(admin.rules, [
      { apiGroups: ['widgets.example.com'], resources: ['widgets', 'gadgets'], verbs: ['*'] },
    ]);
  });

  it('ci/production-values.yaml: existing Secrets, self-registration, pinned image', () => {
    const ms = rendered.get('ci/production-values.yaml')!;
    assert.equal(find(ms, 'APIService').length, 0, 'pgkube registers itself');
    assert.equal(find(ms, 'Secret').length, 0);
    assert.equal(find(ms, 'StatefulSet').length, 0);
    const pod = one(ms, 'Deployment').spec.template.spec;
    const args: string[] = pod.containers[0].args;
    assert.ok(args.includes('--apiservice-kubeconfig=/etc/pgkube/host/kubeconfig'));
    assert.ok(args.includes('--apiservice-service=pgkube/pgkube:443'));
    assert.ok(args.includes('--authentication-tolerate-lookup-failure'));
    assert.ok(args.includes('--history-retention=10m'));
    assert.match(pod.containers[0].image, /^registry\.example\.com\/platform\/pgkube@sha256:0{64}$/);
    assert.deepEqual(pod.containers[0].env[0].valueFrom.secretKeyRef, {
      name: 'pgkube-database',
      key: 'url',
    });
    assert.equal(pod.volumes.find((v: any) => v.name === 'tls').secret.secretName, 'pgkube-serving-cert');
    const registrar = one(ms, 'ClusterRole', 'pgkube:apiservice-registrar');
    assert.deepEqual(registrar.rules[0].resources, ['apiservices']);
    assert.ok(['create', 'patch', 'delete', 'list'].every((v) => registrar.rules[0].verbs.includes(v)));
  });

  it('ci/registration-only-values.yaml: only kinds pgkube serves', () => {
    const ms = rendered.get('ci/registration-only-values.yaml')!;
    assert.ok(
      ms.every(isServed),
      ms
        .filter((m) => !isServed(m))
        .map((m) => m.kind)
        .join(),
    );
    assert.equal(one(ms, 'APIService').metadata.name, 'v1alpha1.widgets.example.com');
  });

  it('an existing TLS Secret without ca.crt needs tls.caBundle for the APIServices', async () => {
    const widgets = path.join(chartDir, 'ci', 'widgets-values.yaml');
    const base = ['template', 'x', chartDir, '--values', widgets, '--set', 'tls.existingSecret=mine'];
    const r = await helm(base, { kubeconfig });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /tls\.caBundle is required/);
    const ms = await renderChart(kubeconfig, {
      valuesFiles: [widgets],
      set: ['tls.existingSecret=mine', 'tls.caBundle=PEM'],
    });
    assert.ok(find(ms, 'APIService').every((a) => b64(a.spec.caBundle) === 'PEM'));
    assert.equal(find(ms, 'Secret', 'x-pgkube-tls').length, 0);
  });

  describe('validated by a live pgkube (served kinds, dry run)', () => {
    const s = useServer();
    before(async () => {
      // as kubectl apply would have made them (the example applies its namespace again)
      for (const ns of ['pgkube', 'widgets-system']) {
        const r = await kubectl(['create', 'namespace', ns, '--save-config'], { kubeconfig: s.kubeconfig });
        assert.equal(r.code, 0, r.stderr);
      }
    });

    for (const set of valueSets) {
      it(set.name, async () => {
        const manifests = rendered.get(set.name)!;
        const crds = definitionsOf(manifests);
        const r = await validateByServer(s.kubeconfig, [...manifests, ...crds]);
        assert.equal(r.code, 0, `${r.stderr}\n${r.stdout}`);
        assert.equal(r.stderr, '');
        const applied = r.stdout.trim().split('\n');
        assert.equal(applied.length, manifests.filter(isServed).length + crds.length, r.stdout);
        assert.ok(
          applied.every((l) => / (created|configured|unchanged) \(server dry run\)$/.test(l)),
          r.stdout,
        );
      });
    }

    it('an unknown field or an invalid value is refused', async () => {
      const ms = rendered.get('ci/widgets-values.yaml')!;
      const apiService = structuredClone(one(ms, 'APIService', 'v1.widgets.example.com'));
      apiService.spec.versionPriority = 0;
      let r = await validateByServer(s.kubeconfig, [apiService]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /versionPriority/);
      const service = structuredClone(one(ms, 'Service', 'pgkube'));
      service.spec.ports[0].targetPorts = 'https';
      r = await validateByServer(s.kubeconfig, [service]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /unknown field "spec\.ports\[0\]\.targetPorts"/);
    });

    it('examples/sidecar', async () => {
      const manifests = await renderSidecarExample(s.kubeconfig);
      const crds = find(manifests, 'ConfigMap')
        .filter((cm) => cm.metadata.name.startsWith('widgets-api-definitions'))
        .flatMap((cm) => Object.values<string>(cm.data).map((t) => parse(t) as Manifest));
      assert.equal(crds.length, 1);
      const r = await validateByServer(s.kubeconfig, [...manifests, ...crds]);
      assert.equal(r.code, 0, `${r.stderr}\n${r.stdout}`);
      assert.deepEqual(await validateOffline(manifests), []);
    });
  });

  it('examples/sidecar: pgkube beside the controller with the sidecar flags; the controller’s kubeconfig names it', async () => {
    const ms = await renderSidecarExample(kubeconfig);
    const pod = one(ms, 'Deployment').spec.template.spec;
    const sidecar = pod.initContainers.find((c: any) => c.name === 'pgkube');
    assert.equal(sidecar.restartPolicy, 'Always');
    const args: string[] = sidecar.args;
    for (const flag of ['--upstream-in-cluster', '--builtin-apis=false', '--bind-address=127.0.0.1'])
      assert.ok(args.includes(flag), flag);
    const port = Number(args.find((a) => a.startsWith('--secure-port='))!.split('=')[1]);
    const definitions = args.find((a) => a.startsWith('--api-definitions='))!.split('=')[1];
    const volumeOf = (c: any, mountPath: string) => {
      const mount = c.volumeMounts.find((m: any) => m.mountPath === mountPath);
      assert.ok(mount, mountPath);
      return pod.volumes.find((v: any) => v.name === mount.name);
    };
    const definitionsCm = one(ms, 'ConfigMap', volumeOf(sidecar, definitions).configMap.name);
    assert.equal(parse(Object.values<string>(definitionsCm.data)[0]).spec.group, 'widgets.example.com');

    const controller = pod.containers[0];
    const kubeconfigPath: string = controller.env.find((e: any) => e.name === 'KUBECONFIG').value;
    const kubeconfigCm = one(
      ms,
      'ConfigMap',
      volumeOf(controller, path.dirname(kubeconfigPath)).configMap.name,
    );
    const config = parse(kubeconfigCm.data[path.basename(kubeconfigPath)]);
    const cluster = config.clusters[0].cluster;
    assert.equal(cluster.server, `https://127.0.0.1:${port}`);
    // the CA the controller trusts is the sidecar's serving Secret's
    const caVolume = volumeOf(controller, cluster['certificate-authority']);
    const tlsFile = args.find((a) => a.startsWith('--tls-cert-file='))!.split('=')[1];
    assert.equal(caVolume.secret.secretName, volumeOf(sidecar, path.dirname(tlsFile)).secret.secretName);
    assert.equal(config.users[0].user.tokenFile, '/var/run/secrets/kubernetes.io/serviceaccount/token');
  });

  it('Dockerfile: multi-stage, runtime dependencies only, non-root, the CLI as entrypoint', async () => {
    const text = await readFile(path.join(repoRoot, 'Dockerfile'), 'utf8');
    assert.ok((text.match(/^FROM /gm) ?? []).length >= 2);
    assert.match(text, /^RUN npm ci\b/m);
    assert.match(text, /^RUN npm run build$/m);
    assert.match(text, /npm ci --omit=dev/);
    assert.match(text, /^USER 10001:10001$/m);
    assert.match(text, /^ENTRYPOINT \["node", "dist\/src\/main\.js"\]$/m);
    assert.match(text, /^COPY migrations \.\/migrations$/m);
    const ignore = await readFile(path.join(repoRoot, '.dockerignore'), 'utf8');
    assert.match(ignore, /^\*$/m);
  });

  it('kubectl reads the sidecar kubeconfig as it stands', async () => {
    const copy = path.join(path.dirname(kubeconfig), 'sidecar.kubeconfig');
    await copyFile(path.join(repoRoot, 'examples', 'sidecar', 'kubeconfig.yaml'), copy);
    const r = await kubectl(['config', 'view', '-o', 'json'], { kubeconfig: copy });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout)['current-context'], 'sidecar');
  });
});
