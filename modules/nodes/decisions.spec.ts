/** The node lifecycle controller's pure decisions: probe times, silence, conditions, taints, zones. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../api/index.js';
import { isSilent, observeHealth, silentConditions, type NodeHealth } from './health.js';
import { applyTaintChange, noExecuteChange, noScheduleChange, type Taint } from './taints.js';
import { zoneOf, zoneState, Zones } from './zones.js';

const T0 = Date.parse('2024-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const grace = { monitorMs: 50_000, startupMs: 60_000 };

function node(
  conditions?: Record<string, unknown>[],
  taints?: Taint[],
  extra: Record<string, unknown> = {},
): KubeObject {
  return {
    metadata: { name: 'n1', creationTimestamp: iso(T0) },
    spec: { ...(taints ? { taints } : {}), ...extra },
    status: conditions ? { conditions } : {},
  };
}
const ready = (status: string, heartbeat = iso(T0), transition = iso(T0)) => ({
  type: 'Ready',
  status,
  lastHeartbeatTime: heartbeat,
  lastTransitionTime: transition,
  reason: 'KubeletReady',
  message: 'ok',
});
const lease = (renewTime: string): KubeObject => ({
  metadata: { name: 'n1', namespace: 'kube-node-lease' },
  spec: { holderIdentity: 'n1', renewTime },
});

describe('probe timestamps (kube’s node health bookkeeping)', () => {
  const seen: NodeHealth = {
    ready: { lastHeartbeatTime: iso(T0), lastTransitionTime: iso(T0) },
    leaseRenewTime: '2024-01-01T00:00:00.000000Z',
    probeTimestamp: T0,
    readyTransitionTimestamp: T0,
  };
  const cases: [string, NodeHealth | undefined, KubeObject, KubeObject | undefined, number, number][] = [
    [
      'first look at a reporting node: now (a new leader gives a full grace period)',
      undefined,
      node([ready('True')]),
      undefined,
      T0 + 99_000,
      T0 + 99_000,
    ],
    ['a node that never reported: its creation', undefined, node(), undefined, T0 + 99_000, T0],
    [
      'same heartbeat, same lease: unchanged',
      seen,
      node([ready('True')]),
      lease('2024-01-01T00:00:00.000000Z'),
      T0 + 30_000,
      T0,
    ],
    [
      'a new heartbeat: now',
      seen,
      node([ready('True', iso(T0 + 10_000))]),
      lease('2024-01-01T00:00:00.000000Z'),
      T0 + 30_000,
      T0 + 30_000,
    ],
    [
      'a renewed lease: now, whatever the status says',
      seen,
      node([ready('True')]),
      lease('2024-01-01T00:00:10.000000Z'),
      T0 + 30_000,
      T0 + 30_000,
    ],
    [
      'an older renewTime is no sign of life',
      seen,
      node([ready('True')]),
      lease('2023-12-31T23:00:00.000000Z'),
      T0 + 30_000,
      T0,
    ],
    ['the Ready condition removed: now', seen, node([]), undefined, T0 + 30_000, T0 + 30_000],
  ];
  for (const [name, saved, n, l, now, probe] of cases) {
    it(name, () => assert.equal(observeHealth(saved, n, l, now).probeTimestamp, probe));
  }

  it('readyTransitionTimestamp moves only when Ready’s transition time moved', () => {
    const same = observeHealth(seen, node([ready('True', iso(T0 + 10_000))]), undefined, T0 + 20_000);
    assert.equal(same.readyTransitionTimestamp, T0);
    const moved = observeHealth(
      seen,
      node([ready('False', iso(T0 + 10_000), iso(T0 + 10_000))]),
      undefined,
      T0 + 20_000,
    );
    assert.equal(moved.readyTransitionTimestamp, T0 + 20_000);
  });

  it('silent past the grace period: monitor grace once Ready was posted, startup grace before', () => {
    const h = { probeTimestamp: T0, readyTransitionTimestamp: T0 };
    assert.equal(isSilent(node([ready('True')]), h, T0 + 50_000, grace), false);
    assert.equal(isSilent(node([ready('True')]), h, T0 + 50_001, grace), true);
    assert.equal(isSilent(node(), h, T0 + 59_000, grace), false);
    assert.equal(isSilent(node(), h, T0 + 60_001, grace), true);
  });
});

describe('a silent node’s conditions', () => {
  const now = '2024-01-01T00:01:00Z';
  it('each monitored condition Unknown, kube’s reason and message; NetworkUnavailable untouched', () => {
    const conditions = silentConditions(
      node([
        ready('True'),
        { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: iso(T0), lastTransitionTime: iso(T0) },
        {
          type: 'NetworkUnavailable',
          status: 'False',
          lastHeartbeatTime: iso(T0),
          lastTransitionTime: iso(T0),
        },
      ]),
      now,
    );
    assert.deepEqual(conditions, [
      {
        type: 'Ready',
        status: 'Unknown',
        lastHeartbeatTime: iso(T0),
        lastTransitionTime: now,
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      },
      {
        type: 'MemoryPressure',
        status: 'Unknown',
        lastHeartbeatTime: iso(T0),
        lastTransitionTime: now,
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      },
      {
        type: 'NetworkUnavailable',
        status: 'False',
        lastHeartbeatTime: iso(T0),
        lastTransitionTime: iso(T0),
      },
      ...['DiskPressure', 'PIDPressure'].map((type) => ({
        type,
        status: 'Unknown',
        lastHeartbeatTime: iso(T0),
        lastTransitionTime: now,
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
      })),
    ]);
  });

  it('a node that never posted: every condition never updated, its heartbeat its creation', () => {
    const conditions = silentConditions(node(), now)!;
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status, c.reason, c.lastHeartbeatTime]),
      ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((t) => [
        t,
        'Unknown',
        'NodeStatusNeverUpdated',
        iso(T0),
      ]),
    );
  });

  it('Ready Unknown already: nothing to write (kube writes only when Ready changes)', () => {
    assert.equal(silentConditions(node([ready('Unknown')]), now), undefined);
  });
});

describe('taints', () => {
  const ns = (key: string): Taint => ({ key: `node.kubernetes.io/${key}`, effect: 'NoSchedule' });
  const nx = (key: string): Taint => ({ key: `node.kubernetes.io/${key}`, effect: 'NoExecute' });
  const userTaint: Taint = { key: 'example.com/dedicated', value: 'db', effect: 'NoSchedule' };

  const noSchedule: [string, KubeObject, Taint[], Taint[]][] = [
    ['Ready=True: none', node([ready('True')]), [], []],
    ['Ready=Unknown: unreachable', node([ready('Unknown')]), [ns('unreachable')], []],
    [
      'Ready=False: not-ready, and unreachable goes',
      node([ready('False')], [ns('unreachable'), userTaint]),
      [ns('not-ready')],
      [ns('unreachable')],
    ],
    [
      'pressure conditions and cordon',
      node(
        [ready('True'), { type: 'MemoryPressure', status: 'True' }, { type: 'PIDPressure', status: 'True' }],
        [],
        { unschedulable: true },
      ),
      [ns('memory-pressure'), ns('pid-pressure'), ns('unschedulable')],
      [],
    ],
    [
      'back to Ready: the condition taints go, the user’s stay',
      node([ready('True')], [ns('not-ready'), userTaint, nx('not-ready')]),
      [],
      [ns('not-ready')],
    ],
  ];
  for (const [name, n, add, remove] of noSchedule) {
    it(`NoSchedule: ${name}`, () => assert.deepEqual(noScheduleChange(n), { add, remove }));
  }

  const noExecute: [string, KubeObject, Taint[], Taint[], boolean][] = [
    ['Unknown: unreachable, paced', node([ready('Unknown')]), [nx('unreachable')], [], true],
    ['False: not-ready, paced', node([ready('False')]), [nx('not-ready')], [], true],
    [
      'False after Unknown: a swap, not paced',
      node([ready('False')], [nx('unreachable')]),
      [nx('not-ready')],
      [nx('unreachable')],
      false,
    ],
    ['already tainted: nothing', node([ready('Unknown')], [nx('unreachable')]), [], [], false],
    [
      'True: both go',
      node([ready('True')], [nx('unreachable'), nx('not-ready'), ns('unreachable')]),
      [],
      [nx('not-ready'), nx('unreachable')],
      false,
    ],
    ['no Ready condition: nothing', node(), [], [], false],
  ];
  for (const [name, n, add, remove, paced] of noExecute) {
    it(`NoExecute: ${name}`, () => assert.deepEqual(noExecuteChange(n), { add, remove, paced }));
  }

  it('added taints carry timeAdded; kept ones keep theirs', () => {
    const kept = { ...nx('unreachable'), timeAdded: '2024-01-01T00:00:00Z' };
    assert.deepEqual(
      applyTaintChange(
        [userTaint, kept, ns('unreachable')],
        { add: [nx('unreachable'), ns('not-ready')], remove: [ns('unreachable')] },
        '2024-01-01T00:05:00Z',
      ),
      [userTaint, kept, { ...ns('not-ready'), timeAdded: '2024-01-01T00:05:00Z' }],
    );
  });
});

describe('zones', () => {
  it('zone keys from region and zone labels (or their beta forms)', () => {
    const labelled = (labels: Record<string, string>): KubeObject => ({ metadata: { name: 'n', labels } });
    assert.equal(zoneOf(labelled({})), '');
    assert.equal(
      zoneOf(labelled({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' })),
      'r:\x00:z',
    );
    assert.equal(zoneOf(labelled({ 'failure-domain.beta.kubernetes.io/zone': 'z' })), ':\x00:z');
  });

  it('states: all not ready is full disruption; more than two and 55% partial', () => {
    assert.equal(zoneState([false], 0.55), 'FullDisruption');
    assert.equal(zoneState([true, false], 0.55), 'Normal');
    assert.equal(zoneState([true, false, false, false], 0.55), 'PartialDisruption');
    assert.equal(zoneState([true, true, false, false, false, true, true], 0.55), 'Normal');
  });

  it('fresh NoExecute taints are paced at the eviction rate, burst one', () => {
    const zones = new Zones({
      evictionRate: 0.1,
      secondaryEvictionRate: 0.01,
      largeClusterSizeThreshold: 50,
      unhealthyZoneThreshold: 0.55,
    });
    zones.update(new Map([['', [true, false, false]]]), T0);
    assert.equal(zones.mayTaint('', T0), true);
    assert.equal(zones.mayTaint('', T0 + 5_000), false);
    assert.equal(zones.mayTaint('', T0 + 10_000), true);
  });

  it('every zone fully disrupted: no fresh taints, the taints come off; one node back: normal again', () => {
    const zones = new Zones();
    assert.deepEqual(
      zones.update(
        new Map([
          ['a', [true]],
          ['b', [false]],
        ]),
        T0,
      ),
      { enteredFullDisruption: false, leftFullDisruption: false },
    );
    assert.deepEqual(
      zones.update(
        new Map([
          ['a', [false]],
          ['b', [false]],
        ]),
        T0 + 1,
      ),
      { enteredFullDisruption: true, leftFullDisruption: false },
    );
    assert.equal(zones.mayTaint('b', T0 + 60_000), false);
    assert.deepEqual(
      zones.update(
        new Map([
          ['a', [false]],
          ['b', [false]],
        ]),
        T0 + 2,
      ),
      { enteredFullDisruption: false, leftFullDisruption: false },
    );
    assert.deepEqual(
      zones.update(
        new Map([
          ['a', [true]],
          ['b', [false]],
        ]),
        T0 + 3,
      ),
      { enteredFullDisruption: false, leftFullDisruption: true },
    );
    assert.equal(zones.mayTaint('b', T0 + 60_000), true);
  });

  it('a partially disrupted small zone stops tainting; a large one slows down', () => {
    const zones = new Zones();
    zones.update(
      new Map([
        ['small', [true, false, false, false]],
        ['other', [true]],
      ]),
      T0,
    );
    assert.equal(zones.mayTaint('small', T0 + 600_000), false);
    const large = [...Array(60)].map((_, i) => i < 10);
    zones.update(new Map([['large', large]]), T0);
    assert.equal(zones.mayTaint('large', T0 + 1), true);
    assert.equal(zones.mayTaint('large', T0 + 50_000), false);
    assert.equal(zones.mayTaint('large', T0 + 101_000), true);
  });
});
