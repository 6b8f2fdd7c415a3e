/**
 * Sidecar mode with two real servers on one machine: an upstream pgkube standing in for the cluster, and a
 * sidecar pgkube serving widgets.example.com from its own PostgreSQL (`--upstream-kubeconfig`, builtin APIs
 * off). Through the sidecar, the real kubectl and client-node see both sets of groups as one API: upstream
 * ConfigMaps and local widgets are created, read, watched and explained; a watch left by its client ends
 * upstream; a client-certificate caller is impersonated upstream. A small TLS upstream of the test shows an
 * upgrade request relayed byte for byte with the caller's own token, and the 503 of an upstream that is gone.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import {
  CustomObjectsApi,
  CoreV1Api,
  KubeConfig,
  makeInformer,
  type KubernetesObject,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { WIDGETS, widget } from './support/aggregation.js';
import { clientCertificate, dataDirCa } from './support/certificates.js';
import { eventually } from './support/eventually.js';
import { kubectl, kubectlBinary } from './support/kubectl.js';
import { series } from './support/prometheus.js';
import { grant, group } from './support/rbac.js';
import { kubeconfigAt, startSidecar, type Sidecar } from './support/sidecar.js';
import { echoBackend, type EchoBackend } from './support/echo-backend.js';
import { useServer } from './support/use-server.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, v = '1') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v },
});

/** Runs `kubectl get -w` until `until` shows in its output. */
async function watchOutput(kubeconfig: string, args: string[], act: () => Promise<unknown>, until: string) {
  const child = spawn(
    await kubectlBinary(),
    ['--kubeconfig', kubeconfig, 'get', ...args, '-w', '-o', 'name'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KUBECACHEDIR: await mkdtemp(path.join(tmpdir(), 'kubectl-cache-')) },
    },
  );
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  try {
    await new Promise((r) => setTimeout(r, 1000));
    await act();
    await eventually(() => out.includes(until), `watch output: ${out}`);
  } finally {
    child.kill();
  }
}

describe('sidecar: widgets here, everything else from the upstream', () => {
  const upstream = useServer();
  let side: Sidecar;

  before(async () => {
    side = await startSidecar(upstream);
    // the upstream's groups and the local one, once the sidecar read the upstream's documents
    await eventually(
      async () => {
        const r = await kubectl(['api-resources', '-o', 'name'], { kubeconfig: side.kubeconfig });
        return /^configmaps$/m.test(r.stdout) && /^widgets\.widgets\.example\.com$/m.test(r.stdout);
      },
      'discovery merged',
      30_000,
    );
  });

  after(async () => {
    await side?.stop();
  });

  it('api-resources lists the upstream’s kinds and the local widgets; explain reads both schemas', async () => {
    const resources = await kubectl(['api-resources'], { kubeconfig: side.kubeconfig });
    assert.equal(resources.code, 0, resources.stderr);
    assert.match(resources.stdout, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
    assert.match(resources.stdout, /^leases\s+coordination\.k8s\.io\/v1\s+true\s+Lease$/m);
    assert.match(resources.stdout, /^widgets\s+wd\s+widgets\.example\.com\/v1alpha1\s+true\s+Widget$/m);
    // the CRD API is the sidecar's own (a clash the local group wins)
    assert.match(resources.stdout, /^customresourcedefinitions\s+crd,crds\s+apiextensions\.k8s\.io\/v1/m);
    const crds = await kubectl(['get', 'crds', '-o', 'name'], { kubeconfig: side.kubeconfig });
    assert.equal(
      crds.stdout.trim(),
      'customresourcedefinition.apiextensions.k8s.io/widgets.widgets.example.com',
    );

    const widgets = await kubectl(['explain', 'widgets.spec.size'], { kubeconfig: side.kubeconfig });
    assert.equal(widgets.code, 0, widgets.stderr);
    assert.match(widgets.stdout, /How big the widget is\./);
    const configmaps = await kubectl(['explain', 'configmaps.data'], { kubeconfig: side.kubeconfig });
    assert.equal(configmaps.code, 0, configmaps.stderr);
    assert.match(configmaps.stdout, /FIELD: data <map\[string\]string>/);
    const version = await kubectl(['version', '-o', 'json'], { kubeconfig: side.kubeconfig });
    assert.equal(JSON.parse(version.stdout).serverVersion.minor, '32');
  });

  it('kubectl creates and gets upstream ConfigMaps and local widgets, each in its own server', async () => {
    const cmCreate = await kubectl(['create', 'configmap', 'through-sidecar', '--from-literal=a=b'], {
      kubeconfig: side.kubeconfig,
    });
    assert.equal(cmCreate.code, 0, cmCreate.stderr);
    assert.equal((await upstream.request('GET', `${CONFIGMAPS}/through-sidecar`)).json.data.a, 'b');
    const cmGet = await kubectl(['get', 'cm', 'through-sidecar', '-o', 'jsonpath={.data.a}'], {
      kubeconfig: side.kubeconfig,
    });
    assert.equal(cmGet.stdout, 'b');

    const wCreate = await kubectl(['create', '-f', '-'], {
      kubeconfig: side.kubeconfig,
      input: JSON.stringify(widget('w1', 2)),
    });
    assert.equal(wCreate.code, 0, wCreate.stderr);
    assert.match(wCreate.stdout, /widget\.widgets\.example\.com\/w1 created/);
    const wGet = await kubectl(['get', 'widgets', 'w1'], { kubeconfig: side.kubeconfig });
    assert.match(wGet.stdout, /^NAME\s+SIZE\nw1\s+2\n$/);
    // the widget is the sidecar's: the upstream serves no such group
    assert.equal((await side.sidecar.request('GET', `${WIDGETS}/w1`)).status, 200);
    assert.equal((await upstream.request('GET', '/apis/widgets.example.com')).status, 404);
    // the sidecar's own validation, its namespaces the upstream's
    const invalid = await kubectl(['create', '-f', '-'], {
      kubeconfig: side.kubeconfig,
      input: JSON.stringify(widget('w0', 0)),
    });
    assert.match(invalid.stderr, /spec\.size in body should be greater than or equal to 1/);
    const nowhere = await kubectl(['create', '-n', 'no-such-ns', '-f', '-'], {
      kubeconfig: side.kubeconfig,
      input: JSON.stringify({ ...widget('w2', 1), metadata: { name: 'w2', namespace: 'no-such-ns' } }),
    });
    assert.match(nowhere.stderr, /namespaces "no-such-ns" not found/);
  });

  it('kubectl get -w streams upstream ConfigMaps and local widgets as they change', async () => {
    await watchOutput(
      side.kubeconfig,
      ['configmaps'],
      () => upstream.request('POST', CONFIGMAPS, { body: cm('watched') }),
      'configmap/watched',
    );
    await watchOutput(
      side.kubeconfig,
      ['widgets'],
      () => side.sidecar.request('POST', WIDGETS, { body: widget('watched', 1) }),
      'widget.widgets.example.com/watched',
    );
  });

  it('a client-node informer syncs on each: ConfigMaps from the upstream, widgets from the sidecar', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(side.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const custom = kc.makeApiClient(CustomObjectsApi);
    const cms = makeInformer<V1ConfigMap>(kc, CONFIGMAPS, () =>
      core.listNamespacedConfigMap({ namespace: 'default' }),
    );
    const widgets = makeInformer<KubernetesObject>(kc, WIDGETS, () =>
      custom.listNamespacedCustomObject({
        group: 'widgets.example.com',
        version: 'v1alpha1',
        namespace: 'default',
        plural: 'widgets',
      }),
    );
    const seen: string[] = [];
    cms.on('add', (o) => seen.push(`cm ${o.metadata?.name}`));
    widgets.on('add', (o) => seen.push(`widget ${o.metadata?.name}`));
    await cms.start();
    await widgets.start();
    try {
      await upstream.request('POST', CONFIGMAPS, { body: cm('informed') });
      await side.sidecar.request('POST', WIDGETS, { body: widget('informed', 3) });
      await eventually(() => seen.includes('cm informed') && seen.includes('widget informed'), seen.join());
      assert.ok(seen.includes('cm through-sidecar'), seen.join());
      assert.ok(seen.includes('widget w1'), seen.join());
    } finally {
      await cms.stop();
      await widgets.stop();
    }
  });

  it('a watch through the sidecar ends upstream when its client goes (the upstream’s long-running gauge)', async () => {
    // Secrets: no other test here watches them, so earlier watches closing late cannot move the count
    const open = async () =>
      series((await upstream.request('GET', '/metrics')).text, 'apiserver_longrunning_requests', {
        verb: 'WATCH',
        resource: 'secrets',
      }) ?? 0;
    const before = await open();
    const req = httpsRequest(new URL('/api/v1/namespaces/default/secrets?watch=1', side.sidecar.url), {
      ca: side.sidecar.ca,
      headers: { authorization: `Bearer ${upstream.token}` },
      agent: false,
    });
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    assert.equal(res.statusCode, 200);
    await eventually(async () => (await open()) === before + 1, 'the watch open upstream');
    req.destroy();
    await eventually(async () => (await open()) === before, 'the watch closed upstream');
  });

  it('a client-certificate caller goes upstream as itself: the sidecar’s credentials, Impersonate-* headers', async () => {
    // signed by the upstream's client CA, which the sidecar trusts from extension-apiserver-authentication
    const cert = await clientCertificate(await dataDirCa(upstream.dataDir), {
      cn: 'alice',
      groups: ['devs'],
    });
    const alice = await kubeconfigAt(side.sidecar, {
      'client-certificate-data': Buffer.from(cert.cert).toString('base64'),
      'client-key-data': Buffer.from(cert.key).toString('base64'),
    });
    const refused = await kubectl(['get', 'configmaps'], { kubeconfig: alice });
    assert.match(
      refused.stderr,
      /configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"/,
    );
    await grant(
      upstream,
      'devs-read-configmaps',
      [group('devs')],
      [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }],
    );
    await eventually(async () => {
      const r = await kubectl(['get', 'configmaps', 'through-sidecar', '-o', 'name'], { kubeconfig: alice });
      return r.stdout.trim() === 'configmap/through-sidecar';
    }, 'alice reads through her group');
    const whoami = await kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], {
      kubeconfig: alice,
    });
    assert.equal(whoami.stdout, 'alice', whoami.stderr);
  });
});

/** A TLS upstream answering discovery with nothing, namespaces as active, and upgrades with 101 and an echo. */
function echoUpstream(): Promise<EchoBackend> {
  return echoBackend({ ipAddresses: ['127.0.0.1'] }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/api') res.end(JSON.stringify({ kind: 'APIVersions', versions: ['v1'] }));
    else if (req.url === '/apis') res.end(JSON.stringify({ kind: 'APIGroupList', groups: [] }));
    // the sidecar's namespaces are the upstream's (its start-up writes ask whether kube-system exists)
    else if (/^\/api\/v1\/namespaces\/[^/]+$/.test(req.url ?? ''))
      res.end(
        JSON.stringify({
          kind: 'Namespace',
          apiVersion: 'v1',
          metadata: { name: req.url!.split('/').pop() },
          status: { phase: 'Active' },
        }),
      );
    else res.end(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [] }));
  });
}

describe('sidecar: upgrade requests and an upstream that is gone', () => {
  let echo: EchoBackend;
  let side: Sidecar;

  before(async () => {
    echo = await echoUpstream();
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-echo-'));
    const kubeconfig = path.join(dir, 'upstream.kubeconfig');
    await writeFile(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'echo',
            cluster: {
              server: `https://127.0.0.1:${echo.port}`,
              'certificate-authority-data': Buffer.from(echo.ca).toString('base64'),
            },
          },
        ],
        users: [{ name: 'sidecar', user: { token: 'sidecar-token' } }],
        contexts: [{ name: 'sidecar@echo', context: { cluster: 'echo', user: 'sidecar' } }],
        'current-context': 'sidecar@echo',
      }),
      { mode: 0o600 },
    );
    side = await startSidecar({ kubeconfig, token: 'caller-token' }, ['--authentication-skip-lookup']);
  });

  after(async () => {
    echo?.close();
    await side?.stop();
  });

  it('an exec upgrade goes upstream before authentication, with the caller’s token, relayed byte for byte', async () => {
    const target = new URL(side.sidecar.url);
    const socket: TLSSocket = connect({
      host: target.hostname,
      port: Number(target.port),
      ca: side.sidecar.ca,
      ALPNProtocols: ['http/1.1'],
    });
    await once(socket, 'secureConnect');
    let received = '';
    socket.on('data', (c: Buffer) => {
      received += c.toString('latin1');
      if (received.startsWith('HTTP/1.1 101') && received.endsWith('\r\n\r\n'))
        socket.write('hello over SPDY');
    });
    const exec = '/api/v1/namespaces/default/pods/p/exec?command=cat&stdin=true';
    socket.write(
      `POST ${exec} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer caller-token\r\n` +
        'Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n',
    );
    await eventually(() => received.endsWith('hello over SPDY'), `the echo: ${JSON.stringify(received)}`);
    socket.destroy();
    assert.match(received, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
    const req = echo.seen.at(-1)!;
    assert.equal(req.url, exec);
    assert.equal(req.headers.authorization, 'Bearer caller-token');
    assert.equal(req.headers.upgrade, 'SPDY/3.1');
    assert.equal(req.headers['x-stream-protocol-version'], 'v4.channel.k8s.io');
  });

  it('the upstream stopped: 503 ServiceUnavailable as a Status', async () => {
    echo.close();
    const r = await side.sidecar.request('GET', CONFIGMAPS, { token: 'caller-token' });
    assert.equal(r.status, 503, r.text);
    assert.equal(r.json.kind, 'Status');
    assert.equal(r.json.reason, 'ServiceUnavailable');
  });
});
