/**
 * Services, Endpoints and EndpointSlices served as data, driven by the real kubectl and @kubernetes/client-node:
 * `kubectl create service`, kube's columns, apply (strategic merge and server-side), kube's validation
 * messages, the status subresource and Protobuf.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DiscoveryV1Api, KubeConfig } from '@kubernetes/client-node';
import { decodeProtobuf } from '../modules/codec/index.js';
import { serviceDefinition } from '../modules/kinds/index.js';
import { kubectl as run, kubectlOf } from './support/kubectl.js';
import { rawRequest } from './support/raw-request.js';
import { useServer } from './support/use-server.js';

describe('Services, Endpoints and EndpointSlices', () => {
  const s = useServer();
  const { ok: k, rows } = kubectlOf(s);
  const svcBase = '/api/v1/namespaces/default/services';

  it('kubectl create service: clusterip, headless, nodeport, externalname; kube’s columns', async () => {
    await k(['create', 'service', 'clusterip', 'web', '--tcp=80:8080']);
    await k(['create', 'service', 'clusterip', 'headless', '--clusterip=None']);
    await k(['create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30080']);
    await k(['create', 'service', 'externalname', 'db', '--external-name=db.example.com']);

    const table = await rows(['get', 'svc']);
    assert.deepEqual(table[0], ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    const byName = new Map(table.slice(1).map((r) => [r[0], r.slice(1, 5)]));
    assert.deepEqual(byName.get('web'), ['ClusterIP', '<none>', '<none>', '80/TCP']);
    assert.deepEqual(byName.get('headless'), ['ClusterIP', 'None', '<none>', '<none>']);
    assert.deepEqual(byName.get('np'), ['NodePort', '<none>', '<none>', '80:30080/TCP']);
    assert.deepEqual(byName.get('db'), ['ExternalName', '<none>', 'db.example.com', '<none>']);
    const wide = await rows(['get', 'svc', 'web', '-o', 'wide']);
    assert.deepEqual(wide[0].slice(-1), ['SELECTOR']);
    assert.deepEqual(wide[1].slice(-1), ['app=web']);

    const web = JSON.parse(await k(['get', 'service', 'web', '-o', 'json']));
    assert.deepEqual(web.spec, {
      ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }],
      selector: { app: 'web' },
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
    });
    assert.deepEqual(web.status, { loadBalancer: {} });
    const np = JSON.parse(await k(['get', 'svc', 'np', '-o', 'json']));
    assert.equal(np.spec.externalTrafficPolicy, 'Cluster');
    const db = JSON.parse(await k(['get', 'svc', 'db', '-o', 'json']));
    assert.deepEqual([db.spec.clusterIP, db.spec.internalTrafficPolicy], [undefined, undefined]);
    const headless = JSON.parse(await k(['get', 'svc', 'headless', '-o', 'json']));
    assert.deepEqual(headless.spec.clusterIPs, ['None']);
  });

  it('names are DNS-1035 labels; ports are checked with kube’s messages', async () => {
    const badName = await run(['create', 'service', 'clusterip', '1abc', '--tcp=80'], {
      kubeconfig: s.kubeconfig,
    });
    assert.notEqual(badName.code, 0);
    assert.match(badName.stderr, /metadata.name: Invalid value: "1abc": a DNS-1035 label must consist of/);
    const r = await s.request('POST', svcBase, {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'bad' },
        spec: { ports: [{ port: 70000 }] },
      },
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.reason, 'Invalid');
    assert.deepEqual(
      r.json.details.causes.map((c: { field: string }) => c.field),
      ['spec.ports[0].port', 'spec.ports[0].targetPort'],
    );
    assert.match(
      r.json.message,
      /spec.ports\[0\].port: Invalid value: 70000: must be between 1 and 65535, inclusive/,
    );
  });

  it('kubectl apply merges ports by port (strategic merge), server-side apply by port+protocol', async () => {
    const manifest = (ports: string) =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: applied\nspec:\n  clusterIP: 10.96.0.20\n  selector:\n    app: a\n  ports:\n${ports}`;
    const file = path.join(s.dataDir, 'svc.yaml');
    await writeFile(file, manifest('  - name: http\n    port: 80\n'));
    await k(['apply', '-f', file]);
    await writeFile(
      file,
      manifest('  - name: http\n    port: 80\n    targetPort: 8080\n  - name: https\n    port: 443\n'),
    );
    await k(['apply', '-f', file]);
    const got = JSON.parse(await k(['get', 'svc', 'applied', '-o', 'json']));
    assert.deepEqual(got.spec.ports, [
      { name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 },
      { name: 'https', port: 443, protocol: 'TCP', targetPort: 443 },
    ]);
    assert.deepEqual(
      [got.spec.clusterIPs, got.spec.ipFamilies, got.spec.ipFamilyPolicy],
      [['10.96.0.20'], ['IPv4'], 'SingleStack'],
    );
    await k(['apply', '--server-side', '--field-manager=ssa', '-f', file]);
    await k(
      ['apply', '--server-side', '--field-manager=ssa2', '-f', '-'],
      manifest('  - name: dns\n    port: 53\n    protocol: UDP\n'),
    );
    const ssa = JSON.parse(await k(['get', 'svc', 'applied', '-o', 'json']));
    assert.deepEqual(
      ssa.spec.ports.map((p: { port: number; protocol: string }) => `${p.port}/${p.protocol}`),
      ['80/TCP', '443/TCP', '53/UDP'],
    );
    // the clusterIP may not change once set
    const moved = await run(['apply', '-f', '-'], {
      kubeconfig: s.kubeconfig,
      input: manifest('  - name: http\n    port: 80\n').replace('10.96.0.20', '10.96.0.21'),
    });
    assert.notEqual(moved.code, 0);
    assert.match(
      moved.stderr,
      /spec.clusterIPs\[0\]: Invalid value: \[\]string\{"10.96.0.21"\}: may not change once set/,
    );
  });

  it('status changes only through services/status', async () => {
    const svc = (await s.request('GET', `${svcBase}/web`)).json;
    const put = await s.request('PUT', `${svcBase}/web`, {
      body: { ...svc, status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json.status, { loadBalancer: {} });
    const status = await s.request('PUT', `${svcBase}/web/status`, {
      body: { ...put.json, status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } },
    });
    assert.equal(status.status, 422, status.text);
    assert.match(
      status.json.message,
      /status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'/,
    );
  });

  it('Endpoints: a loopback address is refused with kube’s message; kubectl get ep prints ip:port', async () => {
    const endpoints = (ip: string) =>
      `apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: web\nsubsets:\n- addresses:\n  - ip: ${ip}\n  ports:\n  - name: 80-8080\n    port: 8080\n`;
    const refused = await run(['apply', '-f', '-'], {
      kubeconfig: s.kubeconfig,
      input: endpoints('127.0.0.1'),
    });
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /The Endpoints "web" is invalid: subsets\[0\].addresses\[0\].ip: Invalid value: "127.0.0.1": may not be in the loopback range \(127.0.0.0\/8, ::1\/128\)/,
    );
    const raw = await s.request('POST', '/api/v1/namespaces/default/endpoints', {
      body: {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'raw' },
        subsets: [{ addresses: [{ ip: '::1' }] }],
      },
    });
    assert.equal(raw.status, 422);
    assert.equal(raw.json.details.causes[0].reason, 'FieldValueInvalid');
    assert.equal(raw.json.details.causes[0].field, 'subsets[0].addresses[0].ip');

    await k(['apply', '-f', '-'], endpoints('10.1.0.1'));
    const table = await rows(['get', 'ep', 'web']);
    assert.deepEqual(table[0], ['NAME', 'ENDPOINTS', 'AGE']);
    assert.deepEqual(table[1].slice(0, 2), ['web', '10.1.0.1:8080']);
    const ep = JSON.parse(await k(['get', 'endpoints', 'web', '-o', 'json']));
    assert.deepEqual(ep.subsets[0].ports, [{ name: '80-8080', port: 8080, protocol: 'TCP' }]);
  });

  it('EndpointSlice: created with client-node, listed by kubectl with kube’s columns', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(s.kubeconfig);
    const api = kc.makeApiClient(DiscoveryV1Api);
    const created = await api.createNamespacedEndpointSlice({
      namespace: 'default',
      body: {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'web-abc', labels: { 'kubernetes.io/service-name': 'web' } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.1.0.1'], conditions: { ready: true } }, { addresses: ['10.1.0.2'] }],
        ports: [{ name: '80-8080', port: 8080 }],
      },
    });
    assert.equal(created.metadata?.generation, 1);
    assert.deepEqual(JSON.parse(JSON.stringify(created.ports)), [
      { name: '80-8080', port: 8080, protocol: 'TCP' },
    ]);
    const listed = await api.listNamespacedEndpointSlice({
      namespace: 'default',
      labelSelector: 'kubernetes.io/service-name=web',
    });
    assert.deepEqual(
      listed.items.map((i) => i.metadata?.name),
      ['web-abc'],
    );
    const table = await rows(['get', 'endpointslices']);
    assert.deepEqual(table[0], ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE']);
    assert.deepEqual(table[1].slice(0, 4), ['web-abc', 'IPv4', '8080', '10.1.0.1,10.1.0.2']);

    const loopback = await s.request('POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
      body: {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'bad' },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['127.0.0.1'] }],
      },
    });
    assert.equal(loopback.status, 422);
    assert.match(
      loopback.json.message,
      /endpoints\[0\].addresses\[0\]: Invalid value: "127.0.0.1": may not be in the loopback range/,
    );
    const retyped = await s.request(
      'PATCH',
      '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/web-abc',
      {
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { addressType: 'IPv6' },
      },
    );
    assert.equal(retyped.status, 422);
    assert.match(retyped.json.message, /addressType: Invalid value: "IPv6": field is immutable/);
  });

  it('kubectl expose, describe and get all work with services', async () => {
    await k(['expose', 'service', 'web', '--name=web2', '--port=81', '--target-port=8080']);
    const web2 = JSON.parse(await k(['get', 'svc', 'web2', '-o', 'json']));
    assert.deepEqual(web2.spec.selector, { app: 'web' });
    assert.deepEqual(web2.spec.ports, [{ port: 81, protocol: 'TCP', targetPort: 8080 }]);
    const described = await k(['describe', 'service', 'web']);
    assert.match(described, /^Name:\s+web$/m);
    assert.match(described, /^Endpoints:\s+10\.1\.0\.1:8080/m);
    const all = await k(['get', 'all']);
    // pods and services are the "all" category here: kubectl names each row's kind
    assert.match(all, /^service\/web\s+ClusterIP/m);
  });

  it('Protobuf: a service reads back with its own schema', async () => {
    const r = await rawRequest(s, 'GET', `${svcBase}/applied`, {
      accept: 'application/vnd.kubernetes.protobuf',
    });
    assert.equal(r.status, 200);
    assert.equal(r.type, 'application/vnd.kubernetes.protobuf');
    const svc = decodeProtobuf(r.body, serviceDefinition.schema) as {
      spec: { ports: { targetPort: unknown }[] };
    };
    assert.deepEqual(
      svc.spec.ports.map((p) => p.targetPort),
      [8080, 443, 53],
    );
  });
});
