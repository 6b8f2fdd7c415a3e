/** kube's MarkPodsNotReady for one pod: only a Ready condition that is not False changes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/index.js';
import { markedNotReady, podsOn } from './pod-readiness.js';

const BEFORE = '2025-01-01T00:00:00Z';
const NOW = '2025-01-01T00:05:00Z';
const condition = (type: string, status: string) => ({
  type,
  status,
  lastProbeTime: null,
  lastTransitionTime: BEFORE,
  ...(type === 'Ready' ? { reason: 'PodReady', message: 'all containers ready' } : {}),
});
const pod = (conditions?: Record<string, unknown>[], nodeName = 'n1'): KubeObject => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: { nodeName },
  status: conditions ? { phase: 'Running', conditions } : { phase: 'Pending' },
});

describe('markedNotReady', () => {
  it('Ready=True turns False: reason and message kept, lastTransitionTime now, other conditions as they were', () => {
    const before = pod([condition('PodScheduled', 'True'), condition('Ready', 'True')]);
    const after = markedNotReady(before, NOW)!;
    assert.deepEqual((after.status as { conditions: unknown[] }).conditions, [
      condition('PodScheduled', 'True'),
      { ...condition('Ready', 'True'), status: 'False', lastTransitionTime: NOW },
    ]);
    assert.equal((before.status as { conditions: { status: string }[] }).conditions[1].status, 'True');
  });
  it('Ready=Unknown turns False too', () => {
    const after = markedNotReady(pod([condition('Ready', 'Unknown')]), NOW)!;
    assert.equal((after.status as { conditions: { status: string }[] }).conditions[0].status, 'False');
  });
  it('already not ready, or no Ready condition at all: nothing to write', () => {
    assert.equal(markedNotReady(pod([condition('Ready', 'False')]), NOW), undefined);
    assert.equal(markedNotReady(pod([condition('PodScheduled', 'True')]), NOW), undefined);
    assert.equal(markedNotReady(pod(), NOW), undefined);
  });
});

describe('podsOn', () => {
  it('the pods bound to that node only', () => {
    const a = pod([], 'n1');
    const b = pod([], 'n2');
    const c = pod([], '');
    assert.deepEqual(podsOn([a, b, c], 'n1'), [a]);
  });
});
