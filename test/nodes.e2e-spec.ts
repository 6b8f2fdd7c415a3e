/**
 * Nodes end to end: two real `pgkube node-agent`s register and keep their Leases; the in-process scheduler binds
 * pods and the agents run them on the simulated runtime (seccomp profiles checked as a runtime would); one node
 * dies: the lifecycle controller marks it Unknown and taints it unreachable after the grace period, the taint
 * eviction controller deletes the pods that do not tolerate it for long; the node comes back and the taints go.
 * kubectl shows kube's columns and events throughout.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { kubectl } from './support/kubectl.js';
import { startNodeAgent, type NodeAgentProcess } from './support/node-agent.js';
import { useServer } from './support/use-server.js';

const GRACE_S = 5;
const PODS = '/api/v1/namespaces/default/pods';

const pod = (name: string, spec: Record<string, unknown> = {}, node = 'n1') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: {
    nodeSelector: { 'kubernetes.io/hostname': node },
    containers: [{ name: 'app', image: 'registry.example/app:1' }],
    ...spec,
  },
});

describe('nodes: agents, scheduler, lifecycle and taint eviction', () => {
  const s = useServer({
    args: [
      `--node-monitor-grace-period=${GRACE_S}s`,
      '--node-monitor-period=1s',
      '--node-startup-grace-period=10s',
    ],
  });
  const agents: NodeAgentProcess[] = [];
  let n1: NodeAgentProcess;

  const get = async (p: string) => (await s.request('GET', p)).json;
  const node = (name: string) => get(`/api/v1/nodes/${name}`);
  const readyOf = (n: any) => n.status.conditions.find((c: any) => c.type === 'Ready');
  const create = async (body: unknown) => {
    const r = await s.request('POST', PODS, { body });
    assert.equal(r.status, 201, r.text);
  };
  const running = (name: string) =>
    eventually(
      async () => (await get(`${PODS}/${name}`)).status?.phase === 'Running',
      `${name} Running`,
      20_000,
    );
  const events = async () => (await get('/apis/events.k8s.io/v1/namespaces/default/events')).items as any[];

  before(async () => {
    n1 = await startNodeAgent(s, 'n1');
    agents.push(n1, await startNodeAgent(s, 'n2'));
  });
  after(async () => {
    for (const a of agents) await a.stop();
  });

  it('agents register Ready nodes whose Leases renew; kubectl get nodes shows kube’s columns', async () => {
    await eventually(async () => readyOf(await node('n1'))?.status === 'True', 'n1 Ready');
    const r = await kubectl(['get', 'nodes', '-o', 'wide'], { kubeconfig: s.kubeconfig });
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = r.stdout.trim().split('\n');
    assert.match(
      header,
      /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP\s+EXTERNAL-IP\s+OS-IMAGE\s+KERNEL-VERSION\s+CONTAINER-RUNTIME$/,
    );
    const n1Row = rows.find((l) => l.startsWith('n1 '))!;
    assert.match(
      n1Row,
      /^n1\s+Ready\s+<none>\s+\S+\s+v1\.32\.\d+\s+127\.0\.0\.1\s+<none>\s+.+\s+pgkube-sim:\/\/0\.1\.0$/,
    );

    const lease = () => get('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1');
    const first = await lease();
    assert.equal(first.spec.holderIdentity, 'n1');
    assert.equal(first.spec.leaseDurationSeconds, 4);
    const n = await node('n1');
    assert.deepEqual(first.metadata.ownerReferences, [
      { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: n.metadata.uid },
    ]);
    // renewed every quarter of its duration
    await eventually(
      async () => (await lease()).spec.renewTime > first.spec.renewTime,
      'lease renewed',
      5_000,
    );
    assert.deepEqual(
      n.status.conditions.map((c: any) => [c.type, c.status]),
      [
        ['MemoryPressure', 'False'],
        ['DiskPressure', 'False'],
        ['PIDPressure', 'False'],
        ['Ready', 'True'],
      ],
    );
    assert.equal(n.metadata.labels['kubernetes.io/hostname'], 'n1');
    assert.ok(Number(n.status.capacity.cpu) >= 1 && /Ki$/.test(n.status.capacity.memory));
  });

  it('the scheduler binds pods and the agent runs them; one that fits nowhere is reported', async () => {
    await create(pod('web'));
    await running('web');
    const r = await kubectl(['get', 'pod', 'web', '-o', 'wide'], { kubeconfig: s.kubeconfig });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES\nweb\s+1\/1\s+Running\s+0\s+\S+\s+10\.\d+\.\d+\.\d+\s+n1\s+<none>\s+<none>\n$/,
    );
    const described = await kubectl(['describe', 'node', 'n1'], { kubeconfig: s.kubeconfig });
    assert.equal(described.code, 0, described.stderr);
    assert.match(described.stdout, /^Non-terminated Pods:\s+\(1 in total\)\n.*\n.*\n\s+default\s+web\s/m);
    assert.match(described.stdout, /^\s+Ready\s+True\s.*KubeletReady\s+kubelet is posting ready status$/m);
    assert.match(described.stdout, /^\s+Container Runtime Version:\s+pgkube-sim:\/\/0\.1\.0$/m);
    const web = await get(`${PODS}/web`);
    assert.ok(web.status.conditions.some((c: any) => c.type === 'PodScheduled' && c.status === 'True'));
    await eventually(async () => {
      const reasons = (await events()).filter((e) => e.regarding.name === 'web').map((e) => e.reason);
      return ['Scheduled', 'Pulled', 'Created', 'Started'].every((x) => reasons.includes(x));
    }, 'Scheduled and the agent’s container events');
    const scheduled = (await events()).find((e) => e.regarding.name === 'web' && e.reason === 'Scheduled');
    assert.equal(scheduled.note, 'Successfully assigned default/web to n1');
    assert.equal(scheduled.reportingController, 'default-scheduler');

    await create(pod('nowhere', { nodeSelector: { disk: 'none' } }));
    const message =
      "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. " +
      'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
    await eventually(async () => {
      const c = (await get(`${PODS}/nowhere`)).status.conditions?.find((x: any) => x.type === 'PodScheduled');
      return c?.status === 'False' && c.reason === 'Unschedulable' && c.message === message;
    }, 'PodScheduled=False');
    await eventually(
      async () => (await events()).some((e) => e.reason === 'FailedScheduling' && e.note === message),
      'FailedScheduling event',
    );
    assert.equal((await get(`${PODS}/nowhere`)).spec.nodeName, undefined);
  });

  it('seccomp: a container inherits the pod’s profile or overrides it; a missing or invalid Localhost profile is CreateContainerError', async () => {
    const dir = path.join(n1.rootDir, 'seccomp');
    await writeFile(
      path.join(dir, 'good.json'),
      JSON.stringify({
        defaultAction: 'SCMP_ACT_ERRNO',
        syscalls: [{ names: ['read'], action: 'SCMP_ACT_ALLOW' }],
      }),
    );
    await writeFile(path.join(dir, 'notify.json'), JSON.stringify({ defaultAction: 'SCMP_ACT_NOTIFY' }));
    const localhost = (file: string) => ({ seccompProfile: { type: 'Localhost', localhostProfile: file } });
    await create(pod('sec-inherit', { securityContext: localhost('good.json') }));
    await create(pod('sec-missing', { securityContext: localhost('missing.json') }));
    await create(
      pod('sec-override', {
        securityContext: localhost('missing.json'),
        containers: [
          { name: 'app', image: 'x', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } },
        ],
      }),
    );
    await create(
      pod('sec-notify', {
        containers: [{ name: 'app', image: 'x', securityContext: localhost('notify.json') }],
      }),
    );
    await create(
      pod('sec-init', {
        securityContext: localhost('missing.json'),
        initContainers: [{ name: 'init', image: 'x' }],
        containers: [
          { name: 'app', image: 'x', securityContext: { seccompProfile: { type: 'Unconfined' } } },
        ],
      }),
    );
    await running('sec-inherit');
    await running('sec-override');
    const waiting = async (name: string) =>
      (await get(`${PODS}/${name}`)).status?.containerStatuses?.[0]?.state?.waiting;
    await eventually(
      async () => (await waiting('sec-missing'))?.reason === 'CreateContainerError',
      'sec-missing',
    );
    const missing = path.join(dir, 'missing.json');
    assert.equal(
      (await waiting('sec-missing')).message,
      `cannot load seccomp profile "${missing}": open ${missing}: no such file or directory`,
    );
    await eventually(
      async () => (await waiting('sec-notify'))?.reason === 'CreateContainerError',
      'sec-notify',
    );
    assert.match((await waiting('sec-notify')).message, /SCMP_ACT_NOTIFY cannot be the defaultAction/);
    assert.equal((await get(`${PODS}/sec-missing`)).status.phase, 'Pending');

    await eventually(async () => {
      const r = await kubectl(['get', 'pods', 'sec-missing', 'sec-init', 'sec-override'], {
        kubeconfig: s.kubeconfig,
      });
      return (
        /sec-missing\s+0\/1\s+CreateContainerError\s/.test(r.stdout) &&
        /sec-init\s+0\/1\s+Init:CreateContainerError\s/.test(r.stdout) &&
        /sec-override\s+1\/1\s+Running\s/.test(r.stdout)
      );
    }, 'kubectl get pods shows CreateContainerError');
    await eventually(
      async () =>
        (await events()).some(
          (e) => e.regarding.name === 'sec-missing' && e.reason === 'Failed' && e.type === 'Warning',
        ),
      'Failed event',
    );

    // bad combinations never reach a node
    const refused = await s.request('POST', PODS, {
      body: pod('sec-invalid', { securityContext: { seccompProfile: { type: 'Localhost' } } }),
    });
    assert.equal(refused.status, 422);
    assert.match(
      refused.json.message,
      /spec\.securityContext\.seccompProfile\.localhostProfile: Required value/,
    );
  });

  it('a node that dies goes Unknown and unreachable after the grace period; pods go after their tolerationSeconds; back, the taints go', async () => {
    const unreachable = 'node.kubernetes.io/unreachable';
    await create(
      pod('short', {
        tolerations: [{ key: unreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 3 }],
      }),
    );
    await create(
      pod('forever', { tolerations: [{ key: unreachable, operator: 'Exists', effect: 'NoExecute' }] }),
    );
    await running('short');
    await running('forever');
    const defaulted = (await get(`${PODS}/web`)).spec.tolerations;
    assert.ok(defaulted.some((t: any) => t.key === unreachable && t.tolerationSeconds === 300));

    const died = Date.now();
    await n1.stop('SIGKILL');
    await eventually(async () => readyOf(await node('n1'))?.status === 'Unknown', 'n1 Unknown', 20_000);
    assert.ok(Date.now() - died >= (GRACE_S - 1) * 1000, `Unknown after ${Date.now() - died} ms`);
    const silent = await node('n1');
    assert.ok(
      silent.status.conditions.every((c: any) => c.status === 'Unknown' && c.reason === 'NodeStatusUnknown'),
    );
    assert.equal(readyOf(silent).message, 'Kubelet stopped posting node status.');
    await eventually(async () => {
      const taints = (await node('n1')).spec.taints ?? [];
      return ['NoSchedule', 'NoExecute'].every((e) =>
        taints.some((t: any) => t.key === unreachable && t.effect === e),
      );
    }, 'unreachable taints');
    const taint = (await node('n1')).spec.taints.find((t: any) => t.effect === 'NoExecute');

    // the pod tolerating it for 3 s goes then; the one tolerating it for ever and the defaulted 300 s stay
    const leaving = async () => {
      const r = await s.request('GET', `${PODS}/short`);
      return r.status === 404 || r.json.metadata.deletionTimestamp !== undefined;
    };
    await eventually(leaving, 'short evicted', 15_000);
    const evictedAfter = Date.now() - Date.parse(taint.timeAdded);
    assert.ok(evictedAfter >= 2_000, `evicted ${evictedAfter} ms after the taint`);
    assert.equal((await get(`${PODS}/forever`)).metadata.deletionTimestamp, undefined);
    assert.equal((await get(`${PODS}/web`)).metadata.deletionTimestamp, undefined);
    await eventually(
      async () =>
        (await events()).some(
          (e) => e.reason === 'TaintManagerEviction' && e.note === 'Marking for deletion Pod default/short',
        ),
      'TaintManagerEviction event',
    );
    // n2 still fits new pods; n1 is tainted
    await create(pod('after', {}, 'n2'));
    await running('after');

    n1 = await startNodeAgent(s, 'n1', { rootDir: n1.rootDir, kubeconfig: n1.kubeconfig });
    agents.push(n1);
    await eventually(
      async () => {
        const n = await node('n1');
        return (
          readyOf(n)?.status === 'True' && !(n.spec.taints ?? []).some((t: any) => t.key === unreachable)
        );
      },
      'n1 Ready without taints',
      20_000,
    );
    await eventually(
      async () => (await s.request('GET', `${PODS}/short`)).status === 404,
      'short gone',
    ).catch(async (e) => {
      console.log(JSON.stringify((await get(`${PODS}/short`)).metadata), n1.output());
      throw e;
    });
    const r = await kubectl(['get', 'nodes'], { kubeconfig: s.kubeconfig });
    assert.match(r.stdout, /\nn1\s+Ready\s/);
  });
});
