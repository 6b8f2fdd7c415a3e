import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/index.js';
import { podSummary, podWideColumns } from './pod-columns.js';

const now = Date.parse('2024-01-01T01:00:00Z');
const fiveMinutesAgo = '2024-01-01T00:55:00Z';

function pod(spec: Record<string, unknown>, status: Record<string, unknown>, meta = {}): KubeObject {
  return { metadata: { name: 'p', ...meta }, spec: { containers: [{ name: 'a' }], ...spec }, status };
}

const running = { running: { startedAt: fiveMinutesAgo } };

describe('kubectl get pods: READY, STATUS, RESTARTS as kube’s printer computes them', () => {
  const cases: [string, KubeObject, [string, string, string]][] = [
    ['a new pod', pod({}, { phase: 'Pending' }), ['0/1', 'Pending', '0']],
    [
      'a running ready container',
      pod(
        {},
        {
          phase: 'Running',
          containerStatuses: [{ name: 'a', ready: true, restartCount: 0, state: running }],
        },
      ),
      ['1/1', 'Running', '0'],
    ],
    [
      'a crash loop, restarted five minutes ago',
      pod(
        {},
        {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'a',
              ready: false,
              restartCount: 5,
              state: { waiting: { reason: 'CrashLoopBackOff' } },
              lastState: { terminated: { exitCode: 1, finishedAt: fiveMinutesAgo } },
            },
          ],
        },
      ),
      ['0/1', 'CrashLoopBackOff', '5 (5m ago)'],
    ],
    [
      'a container that cannot be created',
      pod(
        {},
        {
          phase: 'Pending',
          containerStatuses: [{ name: 'a', state: { waiting: { reason: 'CreateContainerError' } } }],
        },
      ),
      ['0/1', 'CreateContainerError', '0'],
    ],
    [
      'an init container running',
      pod(
        { initContainers: [{ name: 'i' }] },
        { phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { running: {} } }] },
      ),
      ['0/1', 'Init:0/1', '0'],
    ],
    [
      'an init container that failed',
      pod(
        { initContainers: [{ name: 'i' }] },
        { phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { terminated: { exitCode: 2 } } }] },
      ),
      ['0/1', 'Init:ExitCode:2', '0'],
    ],
    [
      'a started sidecar counts as ready',
      pod(
        { initContainers: [{ name: 'i', restartPolicy: 'Always' }] },
        {
          phase: 'Running',
          conditions: [{ type: 'Initialized', status: 'True' }],
          initContainerStatuses: [{ name: 'i', started: true, ready: true, state: running }],
          containerStatuses: [{ name: 'a', ready: true, state: running }],
        },
      ),
      ['2/2', 'Running', '0'],
    ],
    [
      'a completed pod',
      pod(
        {},
        {
          phase: 'Succeeded',
          containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
        },
      ),
      ['0/1', 'Completed', '0'],
    ],
    [
      'a deleted pod',
      pod({}, { phase: 'Running' }, { deletionTimestamp: fiveMinutesAgo }),
      ['0/1', 'Terminating', '0'],
    ],
    ['an evicted pod', pod({}, { phase: 'Failed', reason: 'Evicted' }), ['0/1', 'Evicted', '0']],
    [
      'a gated pod',
      pod(
        {},
        {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
        },
      ),
      ['0/1', 'SchedulingGated', '0'],
    ],
  ];
  for (const [name, obj, [ready, status, restarts]] of cases) {
    it(name, () => assert.deepEqual(podSummary(obj, now), { ready, status, restarts }));
  }
});

describe('kubectl get pods -o wide', () => {
  const cells = (obj: KubeObject) => podWideColumns.map((c) => c.cell!(obj, now));
  it('shows <none> for what is unset', () => {
    assert.deepEqual(cells(pod({}, {})), ['<none>', '<none>', '<none>', '<none>']);
  });
  it('shows the IP, node, nominated node and passed readiness gates', () => {
    const obj = pod(
      {
        nodeName: 'n1',
        readinessGates: [{ conditionType: 'example.com/a' }, { conditionType: 'example.com/b' }],
      },
      {
        podIPs: [{ ip: '10.0.0.5' }],
        nominatedNodeName: 'n2',
        conditions: [{ type: 'example.com/a', status: 'True' }],
      },
    );
    assert.deepEqual(cells(obj), ['10.0.0.5', 'n1', 'n2', '1/2']);
  });
});
