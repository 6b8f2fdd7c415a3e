import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leastAllocatedScore, matchesNodeAffinity, place, podRequests, unfitReasons } from './scheduling.js';
import { evictionDecision, tolerates } from './tolerations.js';

const node = (
  name: string,
  o: {
    cpu?: string;
    memory?: string;
    pods?: string;
    taints?: any[];
    labels?: any;
    ready?: boolean;
    unschedulable?: boolean;
  } = {},
) => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
  spec: { taints: o.taints, unschedulable: o.unschedulable },
  status: {
    allocatable: { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: o.pods ?? '110' },
    conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
  },
});
const pod = (spec: any = {}) => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: {
    containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '500m', memory: '1Gi' } } }],
    ...spec,
  },
});

describe('scheduling decisions', () => {
  it('requests: containers plus sidecars, or the largest init container beside the sidecars before it, plus overhead', () => {
    assert.deepEqual(podRequests(pod()), { milliCpu: 500, memory: 2 ** 30 });
    const p = pod({
      initContainers: [
        { name: 's', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } },
        { name: 'i', resources: { requests: { cpu: '2', memory: '100Mi' } } },
      ],
      overhead: { cpu: '10m' },
    });
    assert.deepEqual(podRequests(p), { milliCpu: 2110, memory: 2 ** 30 });
    assert.deepEqual(
      podRequests(pod({ containers: [{ name: 'c', resources: { requests: { cpu: '0.1' } } }] })),
      {
        milliCpu: 100,
        memory: 0,
      },
    );
  });

  it('tolerations as kube matches them', () => {
    const taint = { key: 'k', value: 'v', effect: 'NoSchedule' };
    const cases: [any, boolean][] = [
      [{ key: 'k', operator: 'Equal', value: 'v' }, true],
      [{ key: 'k', value: 'v', effect: 'NoSchedule' }, true],
      [{ key: 'k', value: 'w' }, false],
      [{ key: 'k', operator: 'Exists' }, true],
      [{ operator: 'Exists' }, true],
      [{ operator: 'Exists', effect: 'NoExecute' }, false],
      [{ value: 'v' }, false],
      [{ key: 'other', operator: 'Exists' }, false],
    ];
    for (const [t, want] of cases) assert.equal(tolerates(t, taint), want, JSON.stringify(t));
  });

  const filterCases: [string, any, any, any[], string[]][] = [
    ['fits', pod(), node('n'), [], []],
    ['unschedulable', pod(), node('n', { unschedulable: true }), [], ['node(s) were unschedulable']],
    [
      'unschedulable, tolerated',
      pod({
        tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
      }),
      node('n', { unschedulable: true }),
      [],
      [],
    ],
    [
      'tainted',
      pod(),
      node('n', { taints: [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }] }),
      [],
      ['node(s) had untolerated taint {gpu: yes}'],
    ],
    [
      'PreferNoSchedule is no filter',
      pod(),
      node('n', { taints: [{ key: 'gpu', effect: 'PreferNoSchedule' }] }),
      [],
      [],
    ],
    [
      'not ready',
      pod(),
      node('n', { ready: false }),
      [],
      ['node(s) had untolerated taint {node.kubernetes.io/not-ready: }'],
    ],
    [
      'selector',
      pod({ nodeSelector: { disk: 'ssd' } }),
      node('n'),
      [],
      ["node(s) didn't match Pod's node affinity/selector"],
    ],
    ['no cpu left', pod(), node('n', { cpu: '1' }), [pod(), pod()], ['Insufficient cpu']],
    [
      'nothing left',
      pod(),
      node('n', { cpu: '500m', memory: '1Gi', pods: '1' }),
      [pod()],
      ['Too many pods', 'Insufficient cpu', 'Insufficient memory'],
    ],
  ];
  for (const [name, p, n, onNode, want] of filterCases)
    it(`filter: ${name}`, () => assert.deepEqual(unfitReasons(p, n, onNode), want));

  it('node affinity: terms ORed, expressions ANDed, matchFields on the name, Gt/Lt on integers', () => {
    const n = node('n1', { labels: { zone: 'a', cores: '8' } });
    const affinity = (...terms: any[]) =>
      pod({
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
        },
      });
    assert.ok(
      matchesNodeAffinity(
        affinity({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }),
        n,
      ),
    );
    assert.ok(
      !matchesNodeAffinity(
        affinity({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }),
        n,
      ),
    );
    assert.ok(
      matchesNodeAffinity(
        affinity(
          { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z'] }] },
          { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
        ),
        n,
      ),
    );
    assert.ok(
      matchesNodeAffinity(
        affinity({
          matchExpressions: [
            { key: 'cores', operator: 'Gt', values: ['4'] },
            { key: 'gpu', operator: 'DoesNotExist' },
          ],
        }),
        n,
      ),
    );
    assert.ok(
      !matchesNodeAffinity(
        affinity({ matchExpressions: [{ key: 'cores', operator: 'Lt', values: ['4'] }] }),
        n,
      ),
    );
    assert.ok(!matchesNodeAffinity(affinity({}), n), 'an empty term selects nothing');
  });

  it('the least allocated node wins; ties at random', () => {
    const busy = node('busy');
    const idle = node('idle');
    const on = (name: string) => (name === 'busy' ? [pod(), pod()] : []);
    assert.ok(leastAllocatedScore(pod(), idle, []) > leastAllocatedScore(pod(), busy, on('busy')));
    assert.deepEqual(place(pod(), [busy, idle], on), { node: 'idle' });
    const twins = [node('a'), node('b')];
    assert.deepEqual(
      place(
        pod(),
        twins,
        () => [],
        () => 0,
      ),
      { node: 'a' },
    );
    assert.deepEqual(
      place(
        pod(),
        twins,
        () => [],
        () => 0.99,
      ),
      { node: 'b' },
    );
  });

  it("kube's FailedScheduling message", () => {
    const nodes = [
      node('a', { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] }),
      node('b', { cpu: '100m' }),
      node('c', { cpu: '100m' }),
    ];
    assert.deepEqual(
      place(pod(), nodes, () => []),
      {
        unschedulable:
          '0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 Insufficient cpu. ' +
          'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      },
    );
    assert.deepEqual(
      place(pod(), [], () => []),
      { unschedulable: 'no nodes available to schedule pods' },
    );
  });
});

describe('taint eviction decisions', () => {
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  const unreachable = {
    key: 'node.kubernetes.io/unreachable',
    effect: 'NoExecute',
    timeAdded: '2026-01-01T00:00:00Z',
  };
  const cases: [string, any[], any[], any][] = [
    ['no NoExecute taint', [{ key: 'x', effect: 'NoSchedule' }], [], { evict: 'never' }],
    ['not tolerated', [unreachable], [], { evict: 'now' }],
    [
      'tolerated for 300 s',
      [unreachable],
      [{ key: unreachable.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      { evict: 'at', atMs: t0 + 300_000 },
    ],
    ['tolerated forever', [unreachable], [{ key: unreachable.key, operator: 'Exists' }], { evict: 'never' }],
    [
      'the shortest used toleration',
      [unreachable],
      [
        { operator: 'Exists', tolerationSeconds: 60 },
        { key: unreachable.key, operator: 'Exists', tolerationSeconds: 5 },
      ],
      { evict: 'at', atMs: t0 + 5_000 },
    ],
    ['zero seconds', [unreachable], [{ operator: 'Exists', tolerationSeconds: 0 }], { evict: 'now' }],
    [
      'one of two taints untolerated',
      [unreachable, { key: 'other', effect: 'NoExecute' }],
      [{ key: unreachable.key, operator: 'Exists' }],
      { evict: 'now' },
    ],
  ];
  for (const [name, taints, tolerations, want] of cases)
    it(name, () => assert.deepEqual(evictionDecision(taints, tolerations, t0 + 1_000), want));
  it('a taint without timeAdded counts from now', () =>
    assert.deepEqual(
      evictionDecision(
        [{ key: 'k', effect: 'NoExecute' }],
        [{ key: 'k', operator: 'Exists', tolerationSeconds: 2 }],
        t0,
      ),
      { evict: 'at', atMs: t0 + 2_000 },
    ));
});
