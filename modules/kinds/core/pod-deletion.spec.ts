/** A deleted Pod's grace period, per kube's pod CheckGracefulDelete. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/index.js';
import { podGracePeriod } from './pod-deletion.js';

const pod = (spec: Record<string, unknown>, phase = 'Running'): KubeObject => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
  status: { phase },
});

const cases: {
  name: string;
  spec: Record<string, unknown>;
  phase?: string;
  requested?: number;
  want: number;
}[] = [
  {
    name: "bound: the pod's own period",
    spec: { nodeName: 'n', terminationGracePeriodSeconds: 30 },
    want: 30,
  },
  { name: 'bound, own period 0', spec: { nodeName: 'n', terminationGracePeriodSeconds: 0 }, want: 0 },
  { name: 'bound, no own period: at once', spec: { nodeName: 'n' }, want: 0 },
  {
    name: 'the requested period wins over the own one',
    spec: { nodeName: 'n', terminationGracePeriodSeconds: 30 },
    requested: 5,
    want: 5,
  },
  {
    name: 'a requested 0 wins too',
    spec: { nodeName: 'n', terminationGracePeriodSeconds: 30 },
    requested: 0,
    want: 0,
  },
  {
    name: 'a longer requested period wins as well',
    spec: { nodeName: 'n', terminationGracePeriodSeconds: 30 },
    requested: 600,
    want: 600,
  },
  { name: 'unbound: at once', spec: { terminationGracePeriodSeconds: 30 }, requested: 20, want: 0 },
  {
    name: 'Succeeded: at once',
    spec: { nodeName: 'n', terminationGracePeriodSeconds: 30 },
    phase: 'Succeeded',
    want: 0,
  },
  {
    name: 'Failed: at once, whatever was asked',
    spec: { nodeName: 'n', terminationGracePeriodSeconds: 30 },
    phase: 'Failed',
    requested: 10,
    want: 0,
  },
  { name: 'Pending and bound: graceful', spec: { nodeName: 'n' }, phase: 'Pending', requested: 7, want: 7 },
  {
    name: 'a negative own period is one second',
    spec: { nodeName: 'n', terminationGracePeriodSeconds: -5 },
    want: 1,
  },
];

describe('podGracePeriod', () => {
  for (const c of cases) {
    it(c.name, () => assert.equal(podGracePeriod(pod(c.spec, c.phase), c.requested), c.want));
  }
});
