/**
 * A node's client certificate (system:node:n1 in system:nodes) through kubectl: the Node authorizer's graph
 * lets it read what the pods bound to it name and nothing else, following binding and deletion; NodeRestriction
 * keeps its writes to its own Node, Lease, pods' status and tokens, each refusal kube's 403 and message.
 */
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { kubectl } from './support/kubectl.js';
import { runPgkube } from './support/server.js';
import { useServer } from './support/use-server.js';

const NS = 'apps';

const pod = (
  name: string,
  nodeName: string | undefined,
  account: string,
  secret: string,
  configMap: string,
) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS },
    spec: {
      nodeName,
      serviceAccountName: account,
      containers: [
        {
          name: 'c',
          image: 'busybox',
          env: [{ name: 'S', valueFrom: { secretKeyRef: { name: secret, key: 'k' } } }],
        },
      ],
      volumes: [{ name: 'conf', configMap: { name: configMap } }],
    },
  });

describe('Node authorization and NodeRestriction', () => {
  const s = useServer();
  let nodeConfig = '';

  const admin = async (args: string[], input?: string) => {
    const r = await kubectl(args, { kubeconfig: s.kubeconfig, input, timeoutMs: 60_000 });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
  };
  const asNode = (args: string[], input?: string) =>
    kubectl(args, { kubeconfig: nodeConfig, input, timeoutMs: 60_000 });
  const allowed = async (args: string[], input?: string) => {
    const r = await asNode(args, input);
    assert.equal(r.code, 0, `as n1: kubectl ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
  };
  const refused = async (args: string[], message: string, input?: string) => {
    const r = await asNode(args, input);
    assert.notEqual(r.code, 0, `as n1: kubectl ${args.join(' ')} was allowed`);
    assert.ok(
      r.stderr.includes(message),
      `as n1: kubectl ${args.join(' ')}:\n${r.stderr}\nwanted: ${message}`,
    );
  };
  const unrelated = (resource: string, name: string) =>
    `${resource} "${name}" is forbidden: User "system:node:n1" cannot get resource "${resource}" in API group "" in the namespace "${NS}": no relationship found between node 'n1' and this object`;

  before(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-node-'));
    nodeConfig = path.join(dir, 'n1.kubeconfig');
    const made = await runPgkube([
      'kubeconfig',
      `--data-dir=${s.dataDir}`,
      '--user=system:node:n1',
      '--group=system:nodes',
      `--out=${nodeConfig}`,
    ]);
    assert.equal(made.code, 0, made.stderr);
    await admin(['create', 'namespace', NS]);
    for (const n of ['n1', 'n2'])
      await admin(
        ['create', '-f', '-'],
        JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: n } }),
      );
    for (const name of ['s-mine', 's-theirs', 's-none', 's-late'])
      await admin(['create', 'secret', 'generic', name, '-n', NS, '--from-literal=k=v']);
    for (const name of ['cm-mine', 'cm-theirs', 'cm-late'])
      await admin(['create', 'configmap', name, '-n', NS, '--from-literal=k=v']);
    for (const name of ['robot', 'other']) await admin(['create', 'serviceaccount', name, '-n', NS]);
    await admin(['create', '-f', '-'], pod('web', 'n1', 'robot', 's-mine', 'cm-mine'));
    await admin(['create', '-f', '-'], pod('far', 'n2', 'other', 's-theirs', 'cm-theirs'));
  });

  it('reads the Secret and ConfigMap its pod names, and its pod; not those of a pod on n2 or of none', async () => {
    await eventually(
      async () => (await asNode(['get', 'secret', 's-mine', '-n', NS])).code === 0,
      'graph has web',
    );
    assert.match(
      await allowed(['get', 'configmap', 'cm-mine', '-n', NS, '-o', 'name']),
      /configmap\/cm-mine/,
    );
    await allowed(['get', 'pod', 'web', '-n', NS]);
    await refused(['get', 'secret', 's-theirs', '-n', NS], unrelated('secrets', 's-theirs'));
    await refused(['get', 'configmap', 'cm-theirs', '-n', NS], unrelated('configmaps', 'cm-theirs'));
    await refused(['get', 'secret', 's-none', '-n', NS], unrelated('secrets', 's-none'));
    await refused(['get', 'pod', 'far', '-n', NS], unrelated('pods', 'far'));
    await refused(['get', 'secrets', '-n', NS], 'No Object name found');
  });

  it('gains access when a pod naming the objects is bound to it, and loses it when the pod is deleted', async () => {
    await admin(['create', '-f', '-'], pod('late', undefined, 'robot', 's-late', 'cm-late'));
    await refused(['get', 'secret', 's-late', '-n', NS], unrelated('secrets', 's-late'));
    const bound = await s.request('POST', `/api/v1/namespaces/${NS}/pods/late/binding`, {
      body: {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: 'late' },
        target: { kind: 'Node', name: 'n1' },
      },
    });
    assert.equal(bound.status, 201, bound.text);
    await eventually(async () => (await asNode(['get', 'secret', 's-late', '-n', NS])).code === 0, 'bound');
    await allowed(['get', 'configmap', 'cm-late', '-n', NS]);
    await admin(['delete', 'pod', 'late', '-n', NS, '--grace-period=0', '--force']);
    await eventually(async () => (await asNode(['get', 'secret', 's-late', '-n', NS])).code !== 0, 'deleted');
    await refused(['get', 'configmap', 'cm-late', '-n', NS], unrelated('configmaps', 'cm-late'));
  });

  it("writes its own Node and its status, not n2's, and not its own taints", async () => {
    await allowed([
      'patch',
      'node',
      'n1',
      '--type=merge',
      '-p',
      '{"metadata":{"labels":{"example.com/rack":"r1"}}}',
    ]);
    // the kubelet writes status without reading nodes/status, which kube does not let a node read
    const ready = async (name: string) => {
      const n = JSON.parse(await admin(['get', 'node', name, '-o', 'json']));
      n.status = { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] };
      return JSON.stringify(n);
    };
    const nodeStatus = (name: string) => ['replace', '--raw', `/api/v1/nodes/${name}/status`, '-f', '-'];
    await allowed(nodeStatus('n1'), await ready('n1'));
    await refused(
      ['replace', '--raw', '/api/v1/nodes/n2', '-f', '-'],
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
      await admin(['get', 'node', 'n2', '-o', 'json']),
    );
    await refused(
      nodeStatus('n2'),
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
      await ready('n2'),
    );
    await refused(
      [
        'patch',
        'node',
        'n1',
        '--type=merge',
        '-p',
        '{"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]}}',
      ],
      'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
    );
    await refused(
      [
        'patch',
        'node',
        'n1',
        '--type=merge',
        '-p',
        '{"metadata":{"labels":{"node-restriction.kubernetes.io/pool":"a"}}}',
      ],
      'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool',
    );
    await refused(['get', 'node', 'n2'], "node 'n1' cannot read 'n2', only its own Node object");
    await refused(
      ['delete', 'node', 'n2'],
      'nodes "n2" is forbidden: User "system:node:n1" cannot delete resource "nodes"',
    );
  });

  it("creates and renews its own Lease, not another's", async () => {
    const lease = (name: string) =>
      JSON.stringify({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace: 'kube-node-lease' },
        spec: { holderIdentity: name, leaseDurationSeconds: 40 },
      });
    await allowed(['create', '-f', '-'], lease('n1'));
    await allowed([
      'patch',
      'lease',
      'n1',
      '-n',
      'kube-node-lease',
      '--type=merge',
      '-p',
      '{"spec":{"leaseDurationSeconds":41}}',
    ]);
    await refused(
      ['create', '-f', '-'],
      'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
      lease('n2'),
    );
    await admin(['create', '-f', '-'], lease('n2'));
    await refused(
      [
        'patch',
        'lease',
        'n2',
        '-n',
        'kube-node-lease',
        '--type=merge',
        '-p',
        '{"spec":{"leaseDurationSeconds":41}}',
      ],
      'can only access node lease with the same name as the requesting node',
    );
  });

  it('writes the status of its pods only, and no other pod write', async () => {
    const running = async (name: string) => {
      const p = JSON.parse(await admin(['get', 'pod', name, '-n', NS, '-o', 'json']));
      p.status = { ...p.status, phase: 'Running' };
      return JSON.stringify(p);
    };
    const podStatus = (name: string) => [
      'replace',
      '--raw',
      `/api/v1/namespaces/${NS}/pods/${name}/status`,
      '-f',
      '-',
    ];
    await allowed(podStatus('web'), await running('web'));
    await refused(
      podStatus('far'),
      'pods "far" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
      await running('far'),
    );
    await refused(
      ['patch', 'pod', 'web', '-n', NS, '--type=merge', '-p', '{"metadata":{"labels":{"a":"b"}}}'],
      `pods "web" is forbidden: User "system:node:n1" cannot patch resource "pods" in API group "" in the namespace "${NS}"`,
    );
  });

  it("creates a token for its pod's ServiceAccount, bound to that pod, only", async () => {
    const uid = (name: string) => admin(['get', 'pod', name, '-n', NS, '-o', 'jsonpath={.metadata.uid}']);
    const web = await uid('web');
    const far = await uid('far');
    const bound = (name: string, u: string) => [
      '--bound-object-kind=Pod',
      `--bound-object-name=${name}`,
      `--bound-object-uid=${u}`,
    ];
    const token = await allowed(['create', 'token', 'robot', '-n', NS, ...bound('web', web)]);
    assert.equal(token.trim().split('.').length, 3, token);
    await refused(
      ['create', 'token', 'other', '-n', NS, ...bound('far', far)],
      `serviceaccounts "other" is forbidden: User "system:node:n1" cannot create resource "serviceaccounts/token" in API group "" in the namespace "${NS}": no relationship found between node 'n1' and this object`,
    );
    await refused(
      ['create', 'token', 'robot', '-n', NS],
      'serviceaccounts "robot" is forbidden: node requested token not bound to a pod',
    );
    await refused(
      ['create', 'token', 'robot', '-n', NS, ...bound('far', far)],
      'serviceaccounts "robot" is forbidden: node requested token bound to a pod scheduled on a different node',
    );
  });

  it('evicts its pods only', async () => {
    const eviction = (name: string) =>
      JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: NS } });
    await refused(
      ['create', '--raw', `/api/v1/namespaces/${NS}/pods/far/eviction`, '-f', '-'],
      'pods "far" is forbidden: node n1 can only evict pods with spec.nodeName set to itself',
      eviction('far'),
    );
    await allowed(
      ['create', '--raw', `/api/v1/namespaces/${NS}/pods/web/eviction`, '-f', '-'],
      eviction('web'),
    );
  });
});
