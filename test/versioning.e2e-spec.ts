/**
 * API versioning on the real server: flags that stop it at start, deprecation warnings (header and kubectl),
 * versions no longer served, and versions disabled by default or by --runtime-config vanishing from discovery
 * and OpenAPI and answering 404. The deprecated and alpha versions are the test-only Widget's (test-apis.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePrometheus, sample } from './support/prometheus.js';
import { kubectl } from './support/kubectl.js';
import { serverExit, testApisEntry, type TestServer } from './support/server.js';
import { useServer } from './support/use-server.js';

const DEPRECATED =
  'testing.pgkube.io/v1beta1 Widget is deprecated in v1.30+, unavailable in v1.35+; use testing.pgkube.io/v1 Widget';
const WIDGETS_BETA = '/apis/testing.pgkube.io/v1beta1/namespaces/default/widgets';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

describe('flags that stop the server at start', () => {
  for (const [flag, message] of [
    ['--feature-gates=NoSuchGate=true', 'unrecognized feature gate: NoSuchGate'],
    [
      '--feature-gates=StructuredAuthorizationConfiguration=false',
      'cannot set feature gate StructuredAuthorizationConfiguration to false, feature is locked to true',
    ],
    ['--runtime-config=batch/v1=false', '--runtime-config: unknown api groups batch'],
    [
      '--runtime-config=testing.pgkube.io/v2=true',
      'group version testing.pgkube.io/v2 that has not been registered',
    ],
    ['--runtime-config=v1=false,api/v1=true', 'conflicting values for v1'],
  ]) {
    it(`${flag}: non-zero exit, the reason on stderr`, async () => {
      const { code, output } = await serverExit([flag], testApisEntry);
      assert.notEqual(code, 0);
      assert.ok(output.includes(message), output);
      assert.doesNotMatch(output, /serving on/);
    });
  }
});

/** the named groups and their versions, from /apis (legacy) and from aggregated discovery */
async function discoveredGroups(s: TestServer): Promise<{ legacy: string[]; aggregated: string[] }> {
  const legacy = await s.request('GET', '/apis');
  const aggregated = await s.request('GET', '/apis', { headers: { accept: AGGREGATED } });
  assert.match(String(aggregated.headers['content-type']), /APIGroupDiscoveryList/);
  return {
    legacy: legacy.json.groups.flatMap((g: any) => g.versions.map((v: any) => v.groupVersion)),
    aggregated: aggregated.json.items.flatMap((g: any) =>
      g.versions.map((v: any) => `${g.metadata.name}/${v.version}`),
    ),
  };
}

describe('a deprecated version, with default enablement', () => {
  const s = useServer({ entry: testApisEntry });

  it("answers every request with kube's Warning header, errors and watches included", async () => {
    const warning = `299 - "${DEPRECATED}"`;
    const created = await s.request('POST', WIDGETS_BETA, {
      body: { apiVersion: 'testing.pgkube.io/v1beta1', kind: 'Widget', metadata: { name: 'w' } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.warning, warning);
    const list = await s.request('GET', WIDGETS_BETA);
    assert.equal(list.headers.warning, warning);
    const missing = await s.request('GET', `${WIDGETS_BETA}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.warning, warning);
    const status = await s.request('GET', `${WIDGETS_BETA}/w/status`);
    assert.equal(status.headers.warning, warning);
    const watch = await s.request('GET', `${WIDGETS_BETA}?watch=1&timeoutSeconds=1`);
    assert.equal(watch.status, 200);
    assert.equal(watch.headers.warning, warning);
    // a field warning comes after the deprecation warning, in its own header value
    const strict = await s.request('POST', `${WIDGETS_BETA}?fieldValidation=Warn`, {
      body: { apiVersion: 'testing.pgkube.io/v1beta1', kind: 'Widget', metadata: { name: 'x' }, bogus: 1 },
    });
    assert.equal(strict.status, 201, strict.text);
    assert.equal(strict.headers.warning, `${warning}, 299 - "unknown field \\"bogus\\""`);
  });

  it('answers without a warning at the stable version', async () => {
    const r = await s.request('GET', '/apis/testing.pgkube.io/v1/namespaces/default/widgets');
    assert.equal(r.status, 200);
    assert.equal(r.json.items.length, 2);
    assert.equal(r.headers.warning, undefined);
  });

  it('sets apiserver_requested_deprecated_apis to 1 for what was requested', async () => {
    const metrics = await s.request('GET', '/metrics');
    const families = parsePrometheus(metrics.text);
    const labels = { group: 'testing.pgkube.io', version: 'v1beta1', resource: 'widgets' };
    const main = sample(families, 'apiserver_requested_deprecated_apis', { ...labels, subresource: '' });
    assert.equal(main?.value, '1');
    assert.match(main?.labels?.removed_release ?? '', /^1\.\d+$/);
    assert.equal(
      sample(families, 'apiserver_requested_deprecated_apis', { ...labels, subresource: 'status' })?.value,
      '1',
    );
    assert.equal(sample(families, 'apiserver_requested_deprecated_apis', { version: 'v1' }), undefined);
  });

  it('is shown by kubectl as a warning on stderr', async () => {
    const r = await kubectl(['get', 'widgets.v1beta1.testing.pgkube.io', '-n', 'default'], {
      kubeconfig: s.kubeconfig,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^w\s/m);
    assert.ok(r.stderr.includes(`Warning: ${DEPRECATED}\n`), r.stderr);
    const stable = await kubectl(['get', 'widgets.v1.testing.pgkube.io', '-n', 'default'], {
      kubeconfig: s.kubeconfig,
    });
    assert.equal(stable.code, 0, stable.stderr);
    assert.doesNotMatch(stable.stderr, /Warning/);
  });

  it('serves the alpha version of nothing: off by default', async () => {
    const { legacy, aggregated } = await discoveredGroups(s);
    for (const groups of [legacy, aggregated]) {
      assert.ok(groups.includes('testing.pgkube.io/v1beta1'), groups.join(' '));
      assert.ok(!groups.includes('testing.pgkube.io/v1alpha1'), groups.join(' '));
    }
    const r = await s.request('GET', '/apis/testing.pgkube.io/v1alpha1/namespaces/default/widgets');
    assert.equal(r.status, 404);
    assert.equal(r.json.kind, 'Status');
  });

  it('answers versions Kubernetes no longer serves with 404 naming the replacement', async () => {
    const r = await s.request('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas');
    assert.equal(r.status, 404);
    assert.deepEqual(r.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'the server could not find the requested resource: flowcontrol.apiserver.k8s.io/v1beta3 is no longer served since v1.32; use flowcontrol.apiserver.k8s.io/v1',
      reason: 'NotFound',
      code: 404,
      details: {},
    });
    const discovery = await s.request('GET', '/apis/batch/v1beta1');
    assert.equal(discovery.status, 404);
    assert.match(discovery.json.message, /batch\/v1beta1 is no longer served since v1\.25; use batch\/v1$/);
    const lease = await s.request('GET', '/apis/coordination.k8s.io/v1beta1/namespaces/default/leases');
    assert.match(lease.json.message, /use coordination\.k8s\.io\/v1 Lease$/);
    const kube = await kubectl(['get', '--raw=/apis/extensions/v1beta1/namespaces/default/deployments'], {
      kubeconfig: s.kubeconfig,
    });
    assert.notEqual(kube.code, 0);
    assert.match(kube.stderr, /NotFound/);
  });
});

describe('--runtime-config on the real server', () => {
  const s = useServer({
    entry: testApisEntry,
    args: [
      '--runtime-config=coordination.k8s.io/v1=false,api/alpha=true,v1/configmaps=false',
      '--runtime-config=testing.pgkube.io/v1beta1=false',
      '--feature-gates=KMSv1=true',
    ],
  });

  it('logs the warning of a deprecated feature gate', () => {
    assert.match(
      s.output(),
      /pgkube: warning: Setting deprecated feature gate KMSv1=true\. It will be removed in a future release\./,
    );
  });

  it('takes disabled group-versions out of /apis and aggregated discovery, and adds enabled alpha ones', async () => {
    const { legacy, aggregated } = await discoveredGroups(s);
    for (const groups of [legacy, aggregated]) {
      assert.deepEqual(
        groups.filter((g) => g.startsWith('coordination.k8s.io/')),
        [],
        'coordination.k8s.io is gone',
      );
      assert.ok(groups.includes('authentication.k8s.io/v1'), 'the groups not disabled stay');
      assert.deepEqual(
        groups.filter((g) => g.startsWith('testing.pgkube.io/')),
        ['testing.pgkube.io/v1', 'testing.pgkube.io/v1alpha1'],
      );
    }
    for (const path of [
      '/apis/coordination.k8s.io',
      '/apis/coordination.k8s.io/v1',
      '/apis/testing.pgkube.io/v1beta1',
    ]) {
      const r = await s.request('GET', path);
      assert.equal(r.status, 404, path);
      assert.equal(r.json.kind, 'Status', path);
    }
  });

  it('takes a disabled resource out of /api/v1 and core aggregated discovery', async () => {
    const core = await s.request('GET', '/api/v1');
    const names = core.json.resources.map((r: any) => r.name);
    assert.ok(names.includes('namespaces'));
    assert.ok(!names.includes('configmaps'), names.join(' '));
    const aggregated = await s.request('GET', '/api', { headers: { accept: AGGREGATED } });
    const resources = aggregated.json.items[0].versions[0].resources.map((r: any) => r.resource);
    assert.ok(!resources.includes('configmaps'), resources.join(' '));
  });

  it('takes disabled versions out of OpenAPI v2 and v3', async () => {
    const index = await s.request('GET', '/openapi/v3');
    const keys = Object.keys(index.json.paths);
    assert.ok(keys.includes('apis/testing.pgkube.io/v1alpha1'), keys.join(' '));
    assert.ok(keys.includes('api/v1'));
    assert.ok(!keys.some((k) => k.startsWith('apis/coordination.k8s.io')), keys.join(' '));
    assert.ok(!keys.includes('apis/testing.pgkube.io/v1beta1'));
    assert.equal((await s.request('GET', '/openapi/v3/apis/coordination.k8s.io/v1')).status, 404);
    const v2 = await s.request('GET', '/openapi/v2', { headers: { accept: 'application/json' } });
    const paths = Object.keys(v2.json.paths);
    assert.ok(paths.some((p) => p.includes('/namespaces/{namespace}/widgets')));
    assert.ok(
      !paths.some((p) => p.includes('leases') || p.includes('configmaps')),
      'leases and configmaps gone',
    );
    assert.ok(!paths.some((p) => p.startsWith('/apis/testing.pgkube.io/v1beta1/')));
  });

  it('answers requests to disabled versions and resources with 404, and serves enabled alpha ones', async () => {
    for (const path of [
      '/apis/coordination.k8s.io/v1/namespaces/default/leases',
      '/api/v1/namespaces/default/configmaps',
      WIDGETS_BETA,
    ]) {
      const r = await s.request('GET', path);
      assert.equal(r.status, 404, path);
      assert.equal(r.json.message, 'the server could not find the requested resource', path);
    }
    const alpha = await s.request('GET', '/apis/testing.pgkube.io/v1alpha1/namespaces/default/widgets');
    assert.equal(alpha.status, 200, alpha.text);
    assert.equal(alpha.headers.warning, undefined);
    const kube = await kubectl(['get', 'leases', '-A'], { kubeconfig: s.kubeconfig });
    assert.notEqual(kube.code, 0);
    assert.match(kube.stderr, /the server doesn't have a resource type "leases"/);
  });

  it('keeps the built-in namespaces working while other core resources are off', async () => {
    const r = await kubectl(['get', 'namespaces', '-o', 'name'], { kubeconfig: s.kubeconfig });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /namespace\/kube-system/);
  });
});
