import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podAddress, simulatedPodStatus } from './pod-status.js';
import { podStatusFingerprint } from './pod-runner.js';

const pod = (spec: any, status?: any) => ({
  metadata: { name: 'p', namespace: 'ns', uid: '2f0c7c3e-1111-4d4e-9a43-0c1e4b1f0b77' },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
  ...(status ? { status } : {}),
});
const t0 = Date.parse('2026-01-01T00:00:00Z');
const facts = (problems: Record<string, string> = {}, now = t0) => ({
  now,
  hostIP: '172.16.0.1',
  podIP: '10.1.2.3',
  problems: new Map(Object.entries(problems)),
});
const conditions = (s: any) => Object.fromEntries(s.conditions.map((c: any) => [c.type, c.status]));

describe('simulated pod status', () => {
  it('every container running: Running, ready, addresses, ids', () => {
    const s = simulatedPodStatus(
      pod({
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      }),
      facts(),
    );
    assert.equal(s.phase, 'Running');
    assert.deepEqual(conditions(s), {
      PodReadyToStartContainers: 'True',
      Initialized: 'True',
      Ready: 'True',
      ContainersReady: 'True',
      PodScheduled: 'True',
    });
    assert.deepEqual([s.hostIP, s.podIP, s.podIPs], ['172.16.0.1', '10.1.2.3', [{ ip: '10.1.2.3' }]]);
    for (const c of s.containerStatuses) {
      assert.deepEqual(c.state, { running: { startedAt: '2026-01-01T00:00:00Z' } });
      assert.equal(c.ready, true);
      assert.match(c.containerID, /^pgkube-sim:\/\/[0-9a-f]{40}$/);
    }
    assert.equal(s.initContainerStatuses, undefined);
  });

  it('hostNetwork pods have the host address', () => {
    const s = simulatedPodStatus(pod({ hostNetwork: true }), facts());
    assert.equal(s.podIP, '172.16.0.1');
  });

  it('a container that cannot be created waits with CreateContainerError; the pod stays Pending', () => {
    const s = simulatedPodStatus(
      pod({
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      }),
      facts({ b: 'cannot load seccomp profile' }),
    );
    assert.equal(s.phase, 'Pending');
    const [a, b] = s.containerStatuses;
    assert.ok(a.state.running);
    assert.deepEqual(b.state, {
      waiting: { reason: 'CreateContainerError', message: 'cannot load seccomp profile' },
    });
    assert.equal(b.ready, false);
    const ready = s.conditions.find((c: any) => c.type === 'Ready');
    assert.deepEqual(
      [ready.status, ready.reason, ready.message],
      ['False', 'ContainersNotReady', 'containers with unready status: [b]'],
    );
  });

  it('init containers complete first; one that cannot be created holds the pod in initialization', () => {
    const spec = {
      initContainers: [
        { name: 'i1', image: 'x' },
        { name: 'i2', image: 'x' },
      ],
    };
    const done = simulatedPodStatus(pod(spec), facts());
    assert.deepEqual(
      done.initContainerStatuses.map((c: any) => c.state.terminated?.reason),
      ['Completed', 'Completed'],
    );
    assert.equal(done.phase, 'Running');
    const held = simulatedPodStatus(pod(spec), facts({ i1: 'no profile' }));
    assert.deepEqual(
      held.initContainerStatuses.map((c: any) => c.state.waiting?.reason),
      ['CreateContainerError', 'PodInitializing'],
    );
    assert.deepEqual(
      held.containerStatuses.map((c: any) => c.state.waiting?.reason),
      ['PodInitializing'],
    );
    const initialized = held.conditions.find((c: any) => c.type === 'Initialized');
    assert.deepEqual(
      [initialized.status, initialized.reason, initialized.message],
      ['False', 'ContainersNotInitialized', 'containers with incomplete status: [i1]'],
    );
    assert.equal(held.phase, 'Pending');
  });

  it('a later posting keeps start and transition times; the fingerprint sees only changes', () => {
    const first = simulatedPodStatus(pod({}), facts());
    const again = simulatedPodStatus(pod({}, first), facts({}, t0 + 60_000));
    assert.equal(again.startTime, first.startTime);
    assert.equal(again.containerStatuses[0].state.running.startedAt, '2026-01-01T00:00:00Z');
    assert.deepEqual(again.conditions, first.conditions);
    assert.equal(podStatusFingerprint(again), podStatusFingerprint(first));
    const broken = simulatedPodStatus(pod({}, first), facts({ app: 'gone' }, t0 + 120_000));
    assert.notEqual(podStatusFingerprint(broken), podStatusFingerprint(first));
    assert.equal(
      broken.conditions.find((c: any) => c.type === 'Ready').lastTransitionTime,
      '2026-01-01T00:02:00Z',
    );
  });

  it('pod addresses are stable per uid and in 10.0.0.0/8', () => {
    assert.equal(podAddress('a'), podAddress('a'));
    assert.notEqual(podAddress('a'), podAddress('b'));
    assert.match(podAddress('a'), /^10\.\d+\.\d+\.\d+$/);
  });
});
