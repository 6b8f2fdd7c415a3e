/**
 * core/v1 Pods driven by the real kubectl: create from YAML with kube's defaults and DefaultTolerationSeconds,
 * kube's columns (wide too), describe, pods/binding (once), pods/status, field selectors on list and watch,
 * pods/eviction, kube's validation and update messages, and Protobuf both ways.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobuf, encodeProtobuf } from '../modules/codec/index.js';
import { podDefinition } from '../modules/kinds/index.js';
import { kubectl as run, kubectlOf } from './support/kubectl.js';
import { rawRequest } from './support/raw-request.js';
import { useServer } from './support/use-server.js';
import { openWatch } from './support/watch-client.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const base = '/api/v1/namespaces/default/pods';

const podYaml = (name: string, extra = '') => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: {app: web}
spec:
  securityContext:
    seccompProfile: {type: RuntimeDefault}
  containers:
  - name: web
    image: nginx:1.27
    ports: [{containerPort: 80, name: http}]
    resources:
      requests: {cpu: 100m, memory: 64Mi}
      limits: {cpu: 200m, memory: 128Mi}
    securityContext:
      seccompProfile: {type: Localhost, localhostProfile: profiles/audit.json}
${extra}`;

const binding = (name: string, node: string) => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name },
  target: { apiVersion: 'v1', kind: 'Node', name: node },
});

describe('Pods', () => {
  // the API alone, as kube-apiserver without kube-scheduler: these pods are bound by hand (test/nodes.e2e-spec.ts
  // has the scheduler)
  const s = useServer({ args: ['--controllers=*,-scheduler'] });
  const { ok: k, rows } = kubectlOf(s);
  const fails = async (args: string[], input?: string) => {
    const r = await run(args, { kubeconfig: s.kubeconfig, input });
    assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} succeeded`);
    return r.stderr;
  };

  it('kubectl create: kube’s defaults, tolerations, status, columns and describe', async () => {
    await k(['create', '-f', '-'], podYaml('p1'));
    const pod = JSON.parse(await k(['get', 'pod', 'p1', '-o', 'json']));
    assert.equal(pod.spec.restartPolicy, 'Always');
    assert.equal(pod.spec.dnsPolicy, 'ClusterFirst');
    assert.equal(pod.spec.schedulerName, 'default-scheduler');
    assert.equal(pod.spec.terminationGracePeriodSeconds, 30);
    assert.equal(pod.spec.enableServiceLinks, true);
    assert.equal(pod.spec.containers[0].imagePullPolicy, 'IfNotPresent');
    assert.equal(pod.spec.containers[0].terminationMessagePath, '/dev/termination-log');
    assert.equal(pod.spec.containers[0].ports[0].protocol, 'TCP');
    assert.deepEqual(pod.spec.tolerations, [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    assert.deepEqual(pod.status, { phase: 'Pending', qosClass: 'Burstable' });

    const table = await rows(['get', 'pods']);
    assert.deepEqual(table[0], ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    assert.deepEqual(table[1].slice(0, 4), ['p1', '0/1', 'Pending', '0']);
    const wide = await rows(['get', 'pods', '-o', 'wide']);
    assert.deepEqual(wide[0], [
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ]);
    assert.deepEqual(wide[1].slice(5), ['<none>', '<none>', '<none>', '<none>']);

    const described = await k(['describe', 'pod', 'p1']);
    assert.match(described, /^Name:\s+p1$/m);
    assert.match(described, /^Status:\s+Pending$/m);
    assert.match(described, /^QoS Class:\s+Burstable$/m);
    assert.match(described, /node\.kubernetes\.io\/unreachable:NoExecute op=Exists for 300s/);
    assert.match(described, /^\s+Image:\s+nginx:1\.27$/m);
  });

  it('pods/binding sets the node once; a second binding is 409', async () => {
    const r = await s.request('POST', `${base}/p1/binding`, { body: binding('p1', 'n1') });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.kind, 'Status');
    assert.equal(r.json.status, 'Success');
    const pod = (await s.request('GET', `${base}/p1`)).json;
    assert.equal(pod.spec.nodeName, 'n1');
    assert.equal(pod.status.conditions[0].type, 'PodScheduled');
    assert.equal(pod.status.conditions[0].status, 'True');

    const again = await s.request('POST', `${base}/p1/binding`, { body: binding('p1', 'n2') });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.json.reason, 'Conflict');
    assert.equal(
      again.json.message,
      'Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "n1"',
    );
    const wrongName = await s.request('POST', `${base}/p1/binding`, { body: binding('other', 'n1') });
    assert.equal(wrongName.status, 400);
    assert.equal(wrongName.json.message, 'name in URL does not match name in Binding object');
    const noTarget = await s.request('POST', `${base}/p1/binding`, {
      body: { ...binding('p1', ''), target: { kind: 'Pod' } },
    });
    assert.equal(noTarget.status, 422, noTarget.text);
    assert.deepEqual(
      noTarget.json.details.causes.map((c: { field: string }) => c.field),
      ['target.kind', 'target.name'],
    );
    const missing = await s.request('POST', `${base}/nope/binding`, { body: binding('nope', 'n1') });
    assert.equal(missing.status, 404);
  });

  it('pods/status changes the status only; kubectl shows it', async () => {
    const pod = (await s.request('GET', `${base}/p1`)).json;
    pod.spec.nodeName = 'elsewhere';
    pod.status = {
      ...pod.status,
      phase: 'Running',
      podIP: '10.0.0.5',
      podIPs: [{ ip: '10.0.0.5' }],
      containerStatuses: [
        {
          name: 'web',
          ready: true,
          restartCount: 2,
          image: 'nginx:1.27',
          imageID: '',
          state: { running: { startedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z') } },
          lastState: {
            terminated: { exitCode: 1, finishedAt: new Date(Date.now() - 300_000).toISOString() },
          },
        },
      ],
    };
    const r = await s.request('PUT', `${base}/p1/status`, { body: pod });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.spec.nodeName, 'n1');
    assert.equal(r.json.status.phase, 'Running');
    const bad = { ...r.json, status: { ...r.json.status, podIPs: [{ ip: 'not-an-ip' }] } };
    const refused = await s.request('PUT', `${base}/p1/status`, { body: bad });
    assert.equal(refused.status, 422, refused.text);

    const wide = await rows(['get', 'pod', 'p1', '-o', 'wide']);
    assert.deepEqual(wide[1].slice(1, 3), ['1/1', 'Running']);
    assert.match(wide[1][3], /^2 \(5m\d*s? ago\)$/);
    assert.deepEqual(wide[1].slice(5), ['10.0.0.5', 'n1', '<none>', '<none>']);
  });

  it('field selectors: spec.nodeName on list and watch, and kube’s other pod fields', async () => {
    await k(['create', '-f', '-'], podYaml('p2'));
    const onNode = await rows(['get', 'pods', '--field-selector', 'spec.nodeName=n1', '-o', 'name']);
    assert.deepEqual(onNode, [['pod/p1']]);
    const pending = await rows(['get', 'pods', '--field-selector', 'status.phase=Pending', '-o', 'name']);
    assert.deepEqual(pending, [['pod/p2']]);
    const unbound = await rows([
      'get',
      'pods',
      '--field-selector',
      'spec.nodeName=,metadata.name!=x',
      '-o',
      'name',
    ]);
    assert.deepEqual(unbound, [['pod/p2']]);
    const unknown = await fails(['get', 'pods', '--field-selector', 'spec.image=x']);
    assert.match(unknown, /field label not supported: spec\.image/);

    const list = (await s.request('GET', `${base}?fieldSelector=spec.nodeName%3Dn2`)).json;
    assert.deepEqual(list.items, []);
    const watch = await openWatch(
      s,
      `${base}?watch=1&fieldSelector=spec.nodeName%3Dn2&resourceVersion=${list.metadata.resourceVersion}`,
    );
    try {
      const bound = await s.request('POST', `${base}/p2/binding`, { body: binding('p2', 'n2') });
      assert.equal(bound.status, 201, bound.text);
      const event = await watch.next(5000);
      assert.equal(event.object.metadata.name, 'p2');
      assert.equal(event.object.spec.nodeName, 'n2');
    } finally {
      watch.close();
    }
  });

  it('pods/eviction deletes the pod (no PodDisruptionBudgets are served)', async () => {
    const body = {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'p2' },
      deleteOptions: { gracePeriodSeconds: 0 },
    };
    const dry = await s.request('POST', `${base}/p2/eviction?dryRun=All`, { body });
    assert.equal(dry.status, 201, dry.text);
    assert.equal((await s.request('GET', `${base}/p2`)).status, 200);
    const r = await s.request('POST', `${base}/p2/eviction`, { body });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status, 'Success');
    assert.equal((await s.request('GET', `${base}/p2`)).status, 404);
    const gone = await s.request('POST', `${base}/p2/eviction`, { body });
    assert.equal(gone.status, 404);
  });

  it('invalid pods and forbidden updates get kube’s messages', async () => {
    const noProfile = await fails(
      ['create', '-f', '-'],
      podYaml('bad1').replace('localhostProfile: profiles/audit.json', ''),
    );
    assert.match(
      noProfile,
      /spec\.containers\[0\]\.securityContext\.seccompProfile\.localhostProfile: Required value: must be set when seccomp type is Localhost/,
    );
    const tolerations = await fails(
      ['create', '-f', '-'],
      podYaml(
        'bad2',
        '  tolerations: [{key: k, operator: Equal, value: v, effect: NoSchedule, tolerationSeconds: 5}]',
      ),
    );
    assert.match(
      tolerations,
      /spec\.tolerations\[0\]\.effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when `tolerationSeconds` is set/,
    );
    const noImage = await fails(['create', '-f', '-'], podYaml('bad3').replace('image: nginx:1.27', ''));
    assert.match(noImage, /spec\.containers\[0\]\.image: Required value/);

    const ports = await fails([
      'patch',
      'pod',
      'p1',
      '-p',
      '{"spec":{"containers":[{"name":"web","ports":[{"containerPort":81}]}]}}',
    ]);
    assert.match(
      ports,
      /spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`/,
    );
    await k(['set', 'image', 'pod/p1', 'web=nginx:1.28']);
    const pod = JSON.parse(await k(['get', 'pod', 'p1', '-o', 'json']));
    assert.equal(pod.spec.containers[0].image, 'nginx:1.28');
  });

  it('discovery lists pods/binding, pods/eviction and pods/status as kube does', async () => {
    const list = (await s.request('GET', '/api/v1')).json;
    const byName = new Map(list.resources.map((r: { name: string }) => [r.name, r]));
    assert.deepEqual(byName.get('pods/binding'), {
      name: 'pods/binding',
      singularName: '',
      namespaced: true,
      kind: 'Binding',
      verbs: ['create'],
    });
    assert.deepEqual(byName.get('pods/eviction'), {
      name: 'pods/eviction',
      singularName: '',
      namespaced: true,
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    });
    assert.deepEqual((byName.get('pods/status') as { verbs: string[] }).verbs, ['get', 'patch', 'update']);
    assert.deepEqual((byName.get('pods') as { shortNames: string[] }).shortNames, ['po']);
    const explained = await k(['explain', 'pods.spec.containers.securityContext.seccompProfile']);
    assert.match(explained, /localhostProfile\s+<string>/);
    assert.match(explained, /type\s+<string> -required-/);
  });

  it('Protobuf: a pod created and read back, and a binding, in kube’s wire form', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pb' },
      spec: {
        volumes: [{ name: 'cfg', configMap: { name: 'cm' } }],
        containers: [
          {
            name: 'c',
            image: 'busybox',
            readinessProbe: { httpGet: { path: '/ready', port: 8080 } },
            volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }],
          },
        ],
      },
    };
    const created = await rawRequest(
      s,
      'POST',
      base,
      { 'content-type': PROTOBUF, accept: PROTOBUF },
      encodeProtobuf(pod, podDefinition.schema),
    );
    assert.equal(created.status, 201, created.body.toString());
    assert.equal(created.type, PROTOBUF);
    const decoded = decodeProtobuf(created.body, podDefinition.schema) as any;
    const json = (await s.request('GET', `${base}/pb`)).json;
    assert.deepEqual(decoded, json);
    assert.deepEqual(json.spec.volumes[0], { name: 'cfg', configMap: { name: 'cm', defaultMode: 420 } });
    assert.equal(json.spec.containers[0].readinessProbe.httpGet.scheme, 'HTTP');

    const bindingBody = encodeProtobuf(binding('pb', 'n1'), podDefinition.subresourceSchemas!.binding);
    const bound = await rawRequest(
      s,
      'POST',
      `${base}/pb/binding`,
      { 'content-type': PROTOBUF },
      bindingBody,
    );
    assert.equal(bound.status, 201, bound.body.toString());
    assert.equal((await s.request('GET', `${base}/pb`)).json.spec.nodeName, 'n1');
  });
});
