import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulatedHost, type HostFigures } from './host-figures.js';
import { nodeIdentity } from './identity.js';
import {
  DEFAULT_EVICTION_HARD,
  allocatableOf,
  capacityOf,
  conditionsOf,
  nodeStatus,
  pressuresOf,
  stampConditions,
  statusFingerprint,
  thresholdAmount,
} from './node-status.js';

const GiB = 2 ** 30;
const id = nodeIdentity({ name: 'n1', internalIP: '10.0.0.1', port: 10250, maxPods: 110, simulated: true });

describe('node status', () => {
  it('thresholds: percentages of the total, binary and decimal quantities', () => {
    assert.equal(thresholdAmount('10%', 200), 20);
    assert.equal(thresholdAmount('100Mi', 0), 100 * 2 ** 20);
    assert.equal(thresholdAmount('1G', 0), 1e9);
    assert.equal(thresholdAmount('1500', 0), 1500);
    assert.throws(() => thresholdAmount('lots', 1), /neither a quantity nor a percentage/);
  });

  const host = (o: Partial<HostFigures>): HostFigures => ({ ...simulatedHost, ...o });
  const pressureCases: [string, Partial<HostFigures>, Record<string, string>, [boolean, boolean, boolean]][] =
    [
      ['a roomy host', {}, DEFAULT_EVICTION_HARD, [false, false, false]],
      [
        'memory under 100Mi',
        { memoryAvailableBytes: 50 * 2 ** 20 },
        DEFAULT_EVICTION_HARD,
        [true, false, false],
      ],
      [
        'disk under 10%',
        { diskAvailableBytes: 0.05 * simulatedHost.diskBytes },
        DEFAULT_EVICTION_HARD,
        [false, true, false],
      ],
      [
        'inodes under 5%',
        { inodesFree: 0.01 * simulatedHost.inodes },
        DEFAULT_EVICTION_HARD,
        [false, true, false],
      ],
      [
        'pids without a threshold',
        { pids: simulatedHost.pidMax - 1 },
        DEFAULT_EVICTION_HARD,
        [false, false, false],
      ],
      [
        'pids under a threshold',
        { pids: simulatedHost.pidMax - 10 },
        { 'pid.available': '5%' },
        [false, false, true],
      ],
    ];
  for (const [name, figures, hard, [memory, disk, pid]] of pressureCases)
    it(`pressure: ${name}`, () => assert.deepEqual(pressuresOf(host(figures), hard), { memory, disk, pid }));

  it('capacity from the host; allocatable less the hard eviction thresholds', () => {
    const h = host({ cpus: 4, memoryBytes: 8 * GiB, diskBytes: 100 * GiB });
    assert.deepEqual(capacityOf(h, id), {
      cpu: '4',
      'ephemeral-storage': `${100 * 2 ** 20}Ki`,
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: `${8 * 2 ** 20}Ki`,
      pods: '110',
    });
    const allocatable = allocatableOf(h, id, DEFAULT_EVICTION_HARD);
    assert.equal(allocatable.memory, `${8 * 2 ** 20 - 100 * 1024}Ki`);
    assert.equal(allocatable['ephemeral-storage'], String(Math.floor(0.9 * 100 * GiB)));
  });

  it("the kubelet's conditions, reasons and messages", () => {
    const ok = conditionsOf({ memory: false, disk: false, pid: false }, []);
    assert.deepEqual(
      ok.map((c) => [c.type, c.status, c.reason]),
      [
        ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'],
        ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
        ['PIDPressure', 'False', 'KubeletHasSufficientPID'],
        ['Ready', 'True', 'KubeletReady'],
      ],
    );
    const bad = conditionsOf({ memory: true, disk: true, pid: true }, ['container runtime is down']);
    assert.deepEqual(
      bad.map((c) => [c.status, c.reason, c.message]),
      [
        ['True', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available'],
        ['True', 'KubeletHasDiskPressure', 'kubelet has disk pressure'],
        ['True', 'KubeletHasInsufficientPID', 'kubelet has insufficient PID available'],
        ['False', 'KubeletNotReady', 'container runtime is down'],
      ],
    );
  });

  it('heartbeats move every posting; a transition time only when the status changes', () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const first = stampConditions(
      conditionsOf({ memory: false, disk: false, pid: false }, []),
      undefined,
      t0,
    );
    assert.ok(
      first.every(
        (c) => c.lastHeartbeatTime === '2026-01-01T00:00:00Z' && c.lastTransitionTime === c.lastHeartbeatTime,
      ),
    );
    const later = stampConditions(
      conditionsOf({ memory: true, disk: false, pid: false }, []),
      first,
      t0 + 60_000,
    );
    const memory = later.find((c) => c.type === 'MemoryPressure')!;
    const ready = later.find((c) => c.type === 'Ready')!;
    assert.equal(memory.lastTransitionTime, '2026-01-01T00:01:00Z');
    assert.equal(ready.lastTransitionTime, '2026-01-01T00:00:00Z');
    assert.equal(ready.lastHeartbeatTime, '2026-01-01T00:01:00Z');
    // the lifecycle controller's Unknown is a change too
    const unknown = first.map((c) => ({ ...c, status: 'Unknown' as const }));
    const back = stampConditions(
      conditionsOf({ memory: false, disk: false, pid: false }, []),
      unknown,
      t0 + 120_000,
    );
    assert.ok(back.every((c) => c.lastTransitionTime === '2026-01-01T00:02:00Z'));
  });

  it('the fingerprint ignores heartbeats and sees changes', () => {
    const s = nodeStatus(simulatedHost, id, DEFAULT_EVICTION_HARD, []);
    const a = { ...s, conditions: stampConditions(s.conditions, undefined, 0) };
    const b = { ...s, conditions: stampConditions(s.conditions, undefined, 10_000) };
    assert.equal(statusFingerprint(a), statusFingerprint(b));
    const c = nodeStatus(host({ memoryAvailableBytes: 1 }), id, DEFAULT_EVICTION_HARD, []);
    assert.notEqual(statusFingerprint(c), statusFingerprint(s));
  });
});
