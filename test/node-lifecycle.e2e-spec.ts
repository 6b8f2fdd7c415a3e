/**
 * Nodes and the node lifecycle controller on the real server, with kube's grace periods shortened by flag:
 * a node whose Lease and status go silent gets its conditions Unknown and the unreachable taints; back and
 * Ready, the taints go; Ready=False brings the not-ready taints. Two nodes, one of which keeps renewing its
 * Lease, so the zone is not fully disrupted (kube then holds NoExecute taints back). The silent node's pods
 * are marked not ready (kube's MarkPodsNotReady); the other node's stay ready. kubectl's columns, describe,
 * cordon and the spec.unschedulable field selector.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { kubectl as run, kubectlOf } from './support/kubectl.js';
import { useServer } from './support/use-server.js';

const micro = () => new Date().toISOString().replace(/Z$/, '000Z');
const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function nodeManifest(name: string, labels: Record<string, string>, ip: string) {
  const now = stamp();
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '3500m', memory: '7Gi', pods: '110' },
      conditions: [
        ...['MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
          type,
          status: 'False',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
          reason: `KubeletHasNo${type}`,
          message: 'fine',
        })),
        {
          type: 'Ready',
          status: 'True',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
        },
      ],
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        machineID: 'm',
        systemUUID: 's',
        bootID: 'b',
        kernelVersion: '6.1.0-test',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: 'containerd://1.7.0',
        kubeletVersion: 'v1.32.3',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

describe('node lifecycle', () => {
  const s = useServer({
    args: [
      '--node-monitor-grace-period=3s',
      '--node-startup-grace-period=3s',
      '--node-monitor-period=300ms',
      '--node-eviction-rate=100',
      // these nodes have no agents: pods are bound by hand, and the taint eviction controller is not tested here
      '--controllers=*,-scheduler,-taint-eviction-controller',
    ],
  });
  const { ok: k, rows } = kubectlOf(s);
  const getNode = async (name: string) => {
    const r = await s.request('GET', `/api/v1/nodes/${name}`);
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const renew = async (name: string) => {
    const r = await s.request(
      'PATCH',
      `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`,
      {
        raw: JSON.stringify({ spec: { renewTime: micro() } }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      },
    );
    assert.equal(r.status, 200, r.text);
  };
  /** what a node agent posts through nodes/status: every condition fresh, Ready as given */
  const postReady = async (name: string, status: 'True' | 'False') => {
    const node = await getNode(name);
    const now = stamp();
    node.status.conditions = node.status.conditions.map((c: Record<string, string>) =>
      c.type === 'Ready'
        ? {
            ...c,
            status,
            reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady',
            message: 'posted by the test',
            lastHeartbeatTime: now,
            lastTransitionTime: c.status === status ? c.lastTransitionTime : now,
          }
        : { ...c, status: 'False', reason: 'KubeletHasSufficient', message: 'fine', lastHeartbeatTime: now },
    );
    const r = await s.request('PUT', `/api/v1/nodes/${name}/status`, { body: node });
    assert.equal(r.status, 200, r.text);
  };
  /** a pod bound to `node` whose agent reported it Ready */
  const readyPodOn = async (name: string, node: string) => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
    };
    const created = await s.request('POST', '/api/v1/namespaces/default/pods', { body: pod });
    assert.equal(created.status, 201, created.text);
    const bound = await s.request('POST', `/api/v1/namespaces/default/pods/${name}/binding`, {
      body: { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: node } },
    });
    assert.equal(bound.status, 201, bound.text);
    const status = {
      phase: 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: stamp() },
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z' },
      ],
    };
    const r = await s.request('PATCH', `/api/v1/namespaces/default/pods/${name}/status`, {
      raw: JSON.stringify({ status }),
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.equal(r.status, 200, r.text);
  };
  const podReady = async (name: string) => {
    const r = await s.request('GET', `/api/v1/namespaces/default/pods/${name}`);
    assert.equal(r.status, 200, r.text);
    return r.json.status.conditions.find((c: { type: string }) => c.type === 'Ready');
  };
  const taints = async (name: string): Promise<string[]> =>
    ((await getNode(name)).spec?.taints ?? [])
      .map((t: Record<string, string>) => `${t.key}:${t.effect}`)
      .sort();

  let steady: NodeJS.Timeout | undefined;
  after(() => clearInterval(steady));

  it('nodes and their Leases are created with kubectl; kubectl get nodes shows kube’s columns', async () => {
    const manifests = [
      nodeManifest('silent', { 'node-role.kubernetes.io/worker': '' }, '10.0.0.1'),
      nodeManifest(
        'steady',
        { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'edge' },
        '10.0.0.2',
      ),
      ...['silent', 'steady'].map((name) => ({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace: 'kube-node-lease' },
        spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: micro() },
      })),
    ];
    await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifests }));
    // the other node stays alive throughout: its agent renews its Lease
    steady = setInterval(() => void renew('steady').catch(() => undefined), 500);
    await readyPodOn('web-silent', 'silent');
    await readyPodOn('web-steady', 'steady');

    const table = await rows(['get', 'nodes']);
    assert.deepEqual(table[0], ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    const byName = new Map(table.slice(1).map((r) => [r[0], r]));
    assert.deepEqual(byName.get('silent')!.slice(1, 3), ['Ready', 'worker']);
    assert.deepEqual(byName.get('steady')!.slice(1, 3), ['Ready', 'control-plane,edge']);
    assert.equal(byName.get('steady')![4], 'v1.32.3');
    const wide = await rows(['get', 'nodes', 'steady', '-o', 'wide']);
    assert.deepEqual(wide[0], [
      'NAME',
      'STATUS',
      'ROLES',
      'AGE',
      'VERSION',
      'INTERNAL-IP',
      'EXTERNAL-IP',
      'OS-IMAGE',
      'KERNEL-VERSION',
      'CONTAINER-RUNTIME',
    ]);
    assert.deepEqual(wide[1].slice(5), [
      '10.0.0.2',
      '<none>',
      'Debian GNU/Linux 12 (bookworm)',
      '6.1.0-test',
      'containerd://1.7.0',
    ]);
  });

  it('one replica leads the controllers through kube-system/kube-controller-manager', async () => {
    const r = await s.request(
      'GET',
      '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager',
    );
    assert.equal(r.status, 200, r.text);
    assert.match(r.json.spec.holderIdentity, /_[0-9a-f-]{36}$/);
    assert.equal(r.json.spec.leaseDurationSeconds, 15);
  });

  it('renewing its Lease keeps a node Ready past the grace period, with no taints', async () => {
    const until = Date.now() + 4500;
    while (Date.now() < until) {
      await renew('silent');
      await new Promise((r) => setTimeout(r, 500));
    }
    const node = await getNode('silent');
    assert.equal(node.status.conditions.find((c: { type: string }) => c.type === 'Ready').status, 'True');
    assert.deepEqual(await taints('silent'), []);
  });

  it('silent past the grace period: every condition Unknown, the unreachable taints', async () => {
    const quietSince = Date.now();
    await eventually(async () => (await taints('silent')).length === 2, 'unreachable taints', 15_000);
    assert.ok(Date.now() - quietSince >= 2500, 'not before the grace period');
    assert.deepEqual(await taints('silent'), [
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    const node = await getNode('silent');
    for (const c of node.status.conditions) {
      assert.equal(c.status, 'Unknown', c.type);
      assert.equal(c.reason, 'NodeStatusUnknown');
      assert.equal(c.message, 'Kubelet stopped posting node status.');
    }
    const noExecute = node.spec.taints.find((t: { effect: string }) => t.effect === 'NoExecute');
    assert.ok(Date.parse(noExecute.timeAdded) >= quietSince - 1000, 'NoExecute taint has timeAdded');
    const table = await rows(['get', 'nodes']);
    assert.equal(table.find((r) => r[0] === 'silent')![1], 'NotReady');
    // the other node, alive through its Lease alone, is untouched
    assert.deepEqual(await taints('steady'), []);

    // the silent node's pod is not ready any more: its condition's reason and message kept, a new transition
    await eventually(async () => (await podReady('web-silent')).status === 'False', 'pod not ready', 5_000);
    const notReady = await podReady('web-silent');
    assert.ok(Date.parse(notReady.lastTransitionTime) >= quietSince - 1000, 'lastTransitionTime is now');
    assert.equal(notReady.reason, undefined);
    assert.equal((await podReady('web-steady')).status, 'True');
  });

  it('back and Ready: the taints go; Ready=False: the not-ready taints', async () => {
    await renew('silent');
    await postReady('silent', 'True');
    await eventually(async () => (await taints('silent')).length === 0, 'taints removed', 10_000);
    const node = await getNode('silent');
    assert.equal(node.status.conditions.find((c: { type: string }) => c.type === 'Ready').status, 'True');

    await postReady('silent', 'False');
    await eventually(async () => (await taints('silent')).length === 2, 'not-ready taints', 10_000);
    assert.deepEqual(await taints('silent'), [
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/not-ready:NoSchedule',
    ]);
  });

  it('kubectl cordon: SchedulingDisabled, the unschedulable taint, and the spec.unschedulable field selector', async () => {
    await k(['cordon', 'steady']);
    const table = await rows(['get', 'nodes', 'steady']);
    assert.equal(table[1][1], 'Ready,SchedulingDisabled');
    await eventually(
      async () => (await taints('steady')).includes('node.kubernetes.io/unschedulable:NoSchedule'),
      'unschedulable taint',
      10_000,
    );
    const cordoned = await k(['get', 'nodes', '--field-selector', 'spec.unschedulable=true', '-o', 'name']);
    assert.equal(cordoned.trim(), 'node/steady');
    const open = await k(['get', 'nodes', '--field-selector', 'spec.unschedulable=false', '-o', 'name']);
    assert.equal(open.trim(), 'node/silent');
    await k(['uncordon', 'steady']);
    await eventually(
      async () => (await taints('steady')).length === 0,
      'unschedulable taint removed',
      10_000,
    );
  });

  it('kubectl describe node', async () => {
    // kubectl also lists the node's pods (a field selector on spec.nodeName), its events and its Lease
    const r = await run(['describe', 'node', 'silent'], { kubeconfig: s.kubeconfig });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Name:\s+silent$/m);
    assert.match(r.stdout, /^Roles:\s+worker$/m);
    assert.match(r.stdout, /^Taints:\s+node.kubernetes.io\/not-ready:NoExecute$/m);
    assert.match(r.stdout, /Ready\s+False/);
    assert.match(r.stdout, /InternalIP:\s+10\.0\.0\.1/);
    assert.match(r.stdout, /Kernel Version:\s+6\.1\.0-test/);
    assert.match(r.stdout, /^Non-terminated Pods:\s+\(1 in total\)$/m);
    assert.match(r.stdout, /^\s+default\s+web-silent\s/m);
    assert.match(r.stdout, /^Lease:\n\s+HolderIdentity:\s+silent$/m);
  });
});
