import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type FieldError } from '../../api/index.js';
import type { KubeObject } from '../../api/index.js';
import { leaseDefinition, leaseStrategy } from './lease.js';
import { systemContext } from '../../api/index.js';

const ctx = systemContext();

const show = (errs: FieldError[] = []): string[] => errs.map(formatFieldError);
const lease = (spec: Record<string, unknown>): KubeObject => ({
  metadata: { name: 'l', namespace: 'n' },
  spec,
});

describe('Lease validation', () => {
  const cases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
    { name: 'empty spec', spec: {}, want: [] },
    {
      name: 'typical',
      spec: {
        holderIdentity: 'me',
        leaseDurationSeconds: 15,
        leaseTransitions: 0,
        renewTime: '2024-01-01T00:00:00.000000Z',
      },
      want: [],
    },
    {
      name: 'duration must be positive',
      spec: { leaseDurationSeconds: 0 },
      want: ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0'],
    },
    {
      name: 'transitions must not be negative',
      spec: { leaseTransitions: -1 },
      want: ['spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0'],
    },
    {
      name: 'unknown built-in strategy',
      spec: { strategy: 'Newest' },
      want: [
        'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
      ],
    },
    { name: 'prefixed strategy', spec: { strategy: 'example.com/mine' }, want: [] },
    {
      name: 'preferredHolder needs a strategy',
      spec: { preferredHolder: 'x' },
      want: ['spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(leaseStrategy.validate?.(lease(c.spec), ctx)), c.want));
  }
});

describe('Lease feature-gated fields', () => {
  it('are dropped on create', () => {
    const obj = lease({ holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' });
    leaseStrategy.prepareForCreate?.(obj, ctx);
    assert.deepEqual(obj.spec, { holderIdentity: 'a' });
  });
  it('are dropped on update unless already set', () => {
    const next = lease({ strategy: 'OldestEmulationVersion', preferredHolder: 'b' });
    leaseStrategy.prepareForUpdate?.(next, lease({ strategy: 'OldestEmulationVersion' }), ctx);
    assert.deepEqual(next.spec, { strategy: 'OldestEmulationVersion' });
  });
});

describe('Lease table', () => {
  it('Holder shows holderIdentity, empty when unset', () => {
    const holder = leaseDefinition.printerColumns?.find((c) => c.name === 'Holder');
    assert.equal(holder?.cell?.(lease({ holderIdentity: 'node-1' }), 0), 'node-1');
    assert.equal(holder?.cell?.(lease({}), 0), '');
  });
});
