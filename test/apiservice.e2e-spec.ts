/**
 * APIServices with the real kubectl: the group/versions the server serves have local APIServices (Local,
 * Available), a CRD's group/version gets one while the CRD exists, a remote APIService is validated as
 * kube-aggregator validates it and then kept as written, and an automanaged one deleted by a user comes back.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { kubectl as runKubectl } from './support/kubectl.js';
import { useServer } from './support/use-server.js';

const crdYaml = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: sprockets.parts.pgkube.io
spec:
  group: parts.pgkube.io
  scope: Namespaced
  names: {plural: sprockets, singular: sprocket, kind: Sprocket}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
  - name: v1beta1
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
`;

const remoteYaml = (name: string) => `apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: ${name}
spec:
  group: metrics.remote.example.com
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  insecureSkipTLSVerify: true
  service:
    namespace: kube-system
    name: metrics-server
`;

describe('APIServices with kubectl', () => {
  const s = useServer();
  const run = (args: string[]) => runKubectl(args, { kubeconfig: s.kubeconfig, timeoutMs: 60_000 });
  const k = async (args: string[]) => {
    const r = await run(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };
  const file = async (name: string, text: string) => {
    const p = path.join(s.dataDir, name);
    await writeFile(p, text);
    return p;
  };
  /** the table's rows by name: [SERVICE, AVAILABLE] */
  const rows = async (): Promise<Map<string, string[]>> => {
    const out = await k(['get', 'apiservices', '--no-headers']);
    return new Map(
      out
        .trim()
        .split('\n')
        .map((line) => line.trim().split(/\s{2,}/))
        .map(([name, ...rest]) => [name, rest]),
    );
  };
  const listed = async (name: string) => (await rows()).has(name);

  it('lists the local APIServices of the served group/versions as Local and available', async () => {
    await eventually(
      async () => listed('v1.rbac.authorization.k8s.io'),
      'v1.rbac.authorization.k8s.io',
      20_000,
    );
    const header = (await k(['get', 'apiservices'])).split('\n')[0];
    assert.match(header, /^NAME\s+SERVICE\s+AVAILABLE\s+AGE$/);
    const table = await rows();
    for (const name of ['v1.', 'v1.rbac.authorization.k8s.io', 'v1.coordination.k8s.io']) {
      assert.deepEqual(table.get(name)?.slice(0, 2), ['Local', 'True'], name);
    }
    const core = JSON.parse(await k(['get', 'apiservice', 'v1.', '-o', 'json']));
    assert.deepEqual(core.metadata.labels, { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
    assert.deepEqual(core.spec, {
      group: '',
      version: 'v1',
      groupPriorityMinimum: 18000,
      versionPriority: 1,
    });
    const resources = await k(['api-resources', '--api-group=apiregistration.k8s.io', '--no-headers']);
    assert.match(resources, /^apiservices\s+apiregistration\.k8s\.io\/v1\s+false\s+APIService\s*$/m);
    const explained = await k(['explain', 'apiservices.spec']);
    assert.match(explained, /groupPriorityMinimum\s+<integer> -required-/);
    assert.match(explained, /service\s+<ServiceReference>/);
    assert.match(
      await k(['get', 'api-extensions', '-o', 'name']),
      /^apiservice\.apiregistration\.k8s\.io\/v1\.$/m,
    );
  });

  it("a CRD's served group/version gets an APIService while the CRD exists", async () => {
    await k(['apply', '-f', await file('crd.yaml', crdYaml)]);
    await eventually(async () => listed('v1.parts.pgkube.io'), 'v1.parts.pgkube.io', 20_000);
    const apiService = JSON.parse(await k(['get', 'apiservice', 'v1.parts.pgkube.io', '-o', 'json']));
    assert.deepEqual(apiService.metadata.labels, { 'kube-aggregator.kubernetes.io/automanaged': 'true' });
    assert.equal(apiService.spec.groupPriorityMinimum, 1000);
    assert.equal(apiService.spec.versionPriority, 100);
    assert.equal(await listed('v1beta1.parts.pgkube.io'), false, 'a version not served has none');
    await k(['delete', 'crd', 'sprockets.parts.pgkube.io', '--timeout=30s']);
    await eventually(async () => !(await listed('v1.parts.pgkube.io')), 'v1.parts.pgkube.io removed', 20_000);
  });

  it('a remote APIService is validated as kube-aggregator does, then kept as written', async () => {
    const bad = await run(['apply', '-f', await file('bad.yaml', remoteYaml('metrics'))]);
    assert.notEqual(bad.code, 0);
    assert.match(
      bad.stderr,
      /The APIService "metrics" is invalid: metadata\.name: Invalid value: "metrics": must be `spec\.version\+"\."\+spec\.group`: "v1beta1\.metrics\.remote\.example\.com"/,
    );
    const name = 'v1beta1.metrics.remote.example.com';
    const out = await k(['apply', '-f', await file('good.yaml', remoteYaml(name))]);
    assert.match(out, /apiservice\.apiregistration\.k8s\.io\/v1beta1\.metrics\.remote\.example\.com created/);
    const stored = JSON.parse(await k(['get', 'apiservice', name, '-o', 'json']));
    assert.deepEqual(stored.spec.service, { namespace: 'kube-system', name: 'metrics-server', port: 443 });
    assert.equal(stored.metadata.labels, undefined);
    assert.equal((await rows()).get(name)?.[0], 'kube-system/metrics-server');
    // the local APIServices' keeper leaves it alone
    await k(['delete', 'apiservice', 'v1.authorization.k8s.io']);
    await eventually(async () => listed('v1.authorization.k8s.io'), 'keeper ran', 20_000);
    assert.equal(await listed(name), true);
    const raw = await s.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      body: {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: 'v1.' },
        spec: { group: '', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1, caBundle: 'YWJj' },
      },
    });
    assert.equal(raw.status, 422);
    assert.deepEqual((raw.json as { details: { causes: unknown[] } }).details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 0: must be positive and less than 20000',
        field: 'spec.groupPriorityMinimum',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "3 bytes": local APIServices may not have a caBundle',
        field: 'spec.caBundle',
      },
    ]);
  });

  it('an automanaged APIService deleted by a user comes back', async () => {
    const before = JSON.parse(await k(['get', 'apiservice', 'v1.coordination.k8s.io', '-o', 'json']));
    await k(['delete', 'apiservice', 'v1.coordination.k8s.io']);
    await eventually(
      async () => {
        const r = await run([
          'get',
          'apiservice',
          'v1.coordination.k8s.io',
          '-o',
          'jsonpath={.metadata.uid}',
        ]);
        return r.code === 0 && r.stdout !== before.metadata.uid;
      },
      'v1.coordination.k8s.io back',
      20_000,
    );
    assert.deepEqual((await rows()).get('v1.coordination.k8s.io')?.slice(0, 2), ['Local', 'True']);
  });
});
