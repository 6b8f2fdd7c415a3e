import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, systemContext, type FieldError, type KubeObject } from '../../api/index.js';
import { nodeDefinition, nodeStatusStrategy, nodeStrategy } from './node.js';

const ctx = systemContext();
const show = (errs: FieldError[] = []): string[] => errs.map(formatFieldError);

const node = (
  spec: Record<string, unknown> = {},
  status?: Record<string, unknown>,
  labels?: Record<string, string>,
) =>
  ({
    metadata: { name: 'n1', ...(labels ? { labels } : {}) },
    spec: structuredClone(spec),
    ...(status ? { status: structuredClone(status) } : {}),
  }) as KubeObject;

function created(spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject {
  const obj = node(spec, status);
  nodeStrategy.defaults!(obj, ctx);
  nodeStrategy.prepareForCreate!(obj, ctx);
  return obj;
}
const createErrors = (spec: Record<string, unknown>, status?: Record<string, unknown>) =>
  show(nodeStrategy.validate!(created(spec, status), ctx));

function updateErrors(oldSpec: Record<string, unknown>, spec: Record<string, unknown>): string[] {
  const old = created(oldSpec);
  const obj = node(spec);
  nodeStrategy.defaults!(obj, ctx);
  nodeStrategy.prepareForUpdate!(obj, old, ctx);
  return show([...nodeStrategy.validate!(obj, ctx), ...nodeStrategy.validateUpdate!(obj, old, ctx)]);
}

describe('Node validation', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['no spec at all', {}, []],
    [
      'taints: key, value and effect checked, duplicates by key and effect (under metadata.taints, as kube)',
      {
        taints: [
          { key: 'a', effect: 'NoSchedule' },
          { key: 'a', effect: 'NoExecute' },
          { key: 'bad key', value: 'v', effect: 'NoSchedule' },
          { key: 'b', value: 'no way', effect: 'Sometimes' },
          { key: 'c' },
          { key: 'a', value: 'x', effect: 'NoSchedule' },
        ],
      },
      [
        "metadata.taints[2].key: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "metadata.taints[3].value: Invalid value: \"no way\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        'metadata.taints[3].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        'metadata.taints[4].effect: Required value',
        'metadata.taints[5]: Duplicate value: core.Taint{Key:"a", Value:"x", Effect:"NoSchedule", TimeAdded:<nil>}: taints must be unique by key and effect pair',
      ],
    ],
    ['one pod CIDR per family', { podCIDRs: ['10.244.1.0/24', 'fd00:10:244:1::/64'] }, []],
    [
      'a bad CIDR is named with the whole list, as kube does',
      { podCIDRs: ['10.244.1.0/24', '10.244.300.0/24'] },
      ['spec.podCIDRs[1]: Invalid value: []string{"10.244.1.0/24", "10.244.300.0/24"}: must be valid CIDR'],
    ],
    [
      'two of one family',
      { podCIDRs: ['10.244.1.0/24', '10.244.2.0/24'] },
      [
        'spec.podCIDRs: Invalid value: []string{"10.244.1.0/24", "10.244.2.0/24"}: may specify no more than one CIDR for each IP family',
      ],
    ],
  ];
  for (const [name, spec, want] of cases) it(name, () => assert.deepEqual(createErrors(spec), want));

  it('capacity and allocatable: never negative; pods and extended resources whole', () => {
    assert.deepEqual(
      createErrors(
        {},
        {
          capacity: { cpu: '-1', memory: '1Gi', pods: '1500m', 'example.com/gpu': '0.5', cpu2: '500m' },
          allocatable: { pods: '110' },
        },
      ),
      [
        'status.capacity[cpu]: Invalid value: "-1": must be greater than or equal to 0',
        'status.capacity[pods]: Invalid value: "1500m": must be an integer',
        'status.capacity[example.com/gpu]: Invalid value: "0.5": must be an integer',
      ],
    );
  });

  it('a lone podCIDR becomes podCIDRs; podCIDR follows the list', () => {
    assert.deepEqual(created({ podCIDR: '10.0.0.0/24' }).spec, {
      podCIDR: '10.0.0.0/24',
      podCIDRs: ['10.0.0.0/24'],
    });
    assert.deepEqual(created({ podCIDR: '10.9.0.0/24', podCIDRs: ['10.0.0.0/24'] }).spec, {
      podCIDR: '10.0.0.0/24',
      podCIDRs: ['10.0.0.0/24'],
    });
  });

  it('updates: pod CIDRs and provider id are set once, externalID never changes', () => {
    assert.deepEqual(updateErrors({}, { podCIDRs: ['10.0.0.0/24'], providerID: 'kind://a' }), []);
    assert.deepEqual(
      updateErrors(
        { podCIDRs: ['10.0.0.0/24'], providerID: 'kind://a', externalID: 'x' },
        { podCIDRs: ['10.0.1.0/24'], providerID: 'kind://b' },
      ),
      [
        'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
        'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
        'spec.externalID: Forbidden: may not be updated',
      ],
    );
  });

  it('status writes: duplicate addresses refused', () => {
    const old = created({});
    const obj = node(
      {},
      {
        addresses: [
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'Hostname', address: 'n1' },
          { type: 'InternalIP', address: '10.0.0.1' },
        ],
      },
    );
    nodeStatusStrategy.prepareForUpdate!(obj, old, ctx);
    assert.deepEqual(show(nodeStatusStrategy.validateUpdate!(obj, old, ctx)), [
      'status.addresses[2]: Duplicate value: core.NodeAddress{Type:"InternalIP", Address:"10.0.0.1"}',
    ]);
  });
});

describe('Node strategies', () => {
  it('a create keeps the status the agent sends; the removed config fields are dropped', () => {
    const obj = created(
      { configSource: { configMap: { namespace: 'a', name: 'b', kubeletConfigKey: 'c' } } },
      { capacity: { pods: '110' }, config: { error: 'x' } },
    );
    assert.deepEqual(obj.spec, {});
    assert.deepEqual(obj.status, { capacity: { pods: '110' } });
  });

  it('an update keeps the stored status; a status write keeps the stored spec', () => {
    const old = created({ unschedulable: true }, { phase: 'Running' });
    const update = node({ unschedulable: false }, { phase: 'Terminated' });
    nodeStrategy.prepareForUpdate!(update, old, ctx);
    assert.deepEqual([update.spec, update.status], [{ unschedulable: false }, { phase: 'Running' }]);
    const status = node({ unschedulable: false }, { phase: 'Terminated' });
    nodeStatusStrategy.prepareForUpdate!(status, old, ctx);
    assert.deepEqual([status.spec, status.status], [{ unschedulable: true }, { phase: 'Terminated' }]);
  });

  it('spec.unschedulable is selectable', () => {
    assert.deepEqual(nodeStrategy.selectableFields!(node({ unschedulable: true })), {
      'spec.unschedulable': 'true',
    });
    assert.deepEqual(nodeStrategy.selectableFields!(node()), { 'spec.unschedulable': 'false' });
  });
});

describe('Node columns (kube’s node printer)', () => {
  const now = Date.parse('2024-01-01T01:00:00Z');
  const cells = (obj: KubeObject) =>
    Object.fromEntries(
      (nodeDefinition.printerColumns ?? []).map((c) => [c.name, c.cell ? c.cell(obj, now) : null]),
    );
  const ready = (status: string) => ({ conditions: [{ type: 'Ready', status }] });

  it('Status: Ready, NotReady for False and Unknown, Unknown without a Ready condition; cordoned adds SchedulingDisabled', () => {
    assert.equal(cells(node({}, ready('True'))).Status, 'Ready');
    assert.equal(cells(node({}, ready('False'))).Status, 'NotReady');
    assert.equal(cells(node({}, ready('Unknown'))).Status, 'NotReady');
    assert.equal(cells(node({})).Status, 'Unknown');
    assert.equal(cells(node({ unschedulable: true }, ready('True'))).Status, 'Ready,SchedulingDisabled');
  });

  it('Roles: node-role.kubernetes.io/<role> keys and kubernetes.io/role values, sorted; <none> without', () => {
    const labels = {
      'node-role.kubernetes.io/worker': '',
      'node-role.kubernetes.io/control-plane': 'true',
      'node-role.kubernetes.io/': 'ignored',
      'kubernetes.io/role': 'edge',
      'other.io/role': 'no',
    };
    assert.equal(cells(node({}, undefined, labels)).Roles, 'control-plane,edge,worker');
    assert.equal(cells(node({})).Roles, '<none>');
  });

  it('wide columns: first InternalIP and ExternalIP, OS image, kernel, runtime; <none> and <unknown> when absent', () => {
    const full = cells(
      node(
        {},
        {
          addresses: [
            { type: 'Hostname', address: 'n1' },
            { type: 'InternalIP', address: '10.0.0.1' },
            { type: 'InternalIP', address: '10.0.0.2' },
            { type: 'ExternalIP', address: '203.0.113.1' },
          ],
          nodeInfo: {
            kubeletVersion: 'v1.32.3',
            osImage: 'Debian GNU/Linux 12 (bookworm)',
            kernelVersion: '6.1.0',
            containerRuntimeVersion: 'containerd://1.7.0',
          },
        },
      ),
    );
    assert.deepEqual(
      [
        full.Version,
        full['Internal-IP'],
        full['External-IP'],
        full['OS-Image'],
        full['Kernel-Version'],
        full['Container-Runtime'],
      ],
      ['v1.32.3', '10.0.0.1', '203.0.113.1', 'Debian GNU/Linux 12 (bookworm)', '6.1.0', 'containerd://1.7.0'],
    );
    const bare = cells(node({}));
    assert.deepEqual(
      [
        bare.Version,
        bare['Internal-IP'],
        bare['External-IP'],
        bare['OS-Image'],
        bare['Kernel-Version'],
        bare['Container-Runtime'],
      ],
      ['', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
    );
  });

  it('the columns and their priorities are kube’s', () => {
    assert.deepEqual(
      (nodeDefinition.printerColumns ?? []).map((c) => `${c.name}:${c.priority}`),
      [
        'Name:0',
        'Status:0',
        'Roles:0',
        'Age:0',
        'Version:0',
        'Internal-IP:1',
        'External-IP:1',
        'OS-Image:1',
        'Kernel-Version:1',
        'Container-Runtime:1',
      ],
    );
  });
});
