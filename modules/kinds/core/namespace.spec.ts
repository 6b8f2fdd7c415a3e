import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type FieldError } from '../../api/index.js';
import type { KubeObject } from '../../api/index.js';
import {
  namespaceDefinition,
  namespaceFinalizeStrategy,
  namespaceStatusStrategy,
  namespaceStrategy as strategy,
} from './namespace.js';
import { systemContext } from '../../api/index.js';

const ctx = systemContext();

const show = (errs: FieldError[] = []): string[] => errs.map(formatFieldError);
const ns = (extra: Partial<KubeObject> = {}, meta: KubeObject['metadata'] = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'team-a', ...meta },
  ...extra,
});

describe('Namespace create', () => {
  it('defaults the phase and the name label', () => {
    const obj = ns({}, { labels: { x: 'y' } });
    strategy.defaults?.(obj, ctx);
    assert.deepEqual(obj.status, { phase: 'Active' });
    assert.deepEqual(obj.metadata.labels, { x: 'y', 'kubernetes.io/metadata.name': 'team-a' });
  });
  it('a nameless (generateName) namespace gets its label at canonicalize', () => {
    const obj = ns({}, { name: undefined, generateName: 'team-' });
    strategy.defaults?.(obj, ctx);
    assert.equal(obj.metadata.labels, undefined);
    obj.metadata.name = 'team-x7k2p';
    strategy.canonicalize?.(obj, ctx);
    assert.deepEqual(obj.metadata.labels, { 'kubernetes.io/metadata.name': 'team-x7k2p' });
  });
  it('the label cannot be set to another name', () => {
    const obj = ns({}, { labels: { 'kubernetes.io/metadata.name': 'other' } });
    strategy.canonicalize?.(obj, ctx);
    assert.equal(obj.metadata.labels?.['kubernetes.io/metadata.name'], 'team-a');
  });
  it('status is reset and the kubernetes finalizer added', () => {
    const obj = ns({
      spec: { finalizers: ['example.com/mine'] },
      status: { phase: 'Terminating', conditions: [] },
    });
    strategy.prepareForCreate?.(obj, ctx);
    assert.deepEqual(obj.status, { phase: 'Active' });
    assert.deepEqual(obj.spec, { finalizers: ['example.com/mine', 'kubernetes'] });
  });
  it('the kubernetes finalizer is not duplicated', () => {
    const obj = ns({ spec: { finalizers: ['kubernetes'] } });
    strategy.prepareForCreate?.(obj, ctx);
    assert.deepEqual(obj.spec, { finalizers: ['kubernetes'] });
  });
  it('spec is created when absent', () => {
    const obj = ns();
    strategy.prepareForCreate?.(obj, ctx);
    assert.deepEqual(obj.spec, { finalizers: ['kubernetes'] });
  });
});

describe('Namespace validation', () => {
  const cases: { name: string; obj: KubeObject; want: string[] }[] = [
    { name: 'valid', obj: ns({ spec: { finalizers: ['kubernetes', 'example.com/x'] } }), want: [] },
    {
      name: 'spec finalizers must be standard or qualified',
      obj: ns({ spec: { finalizers: ['custom'] } }),
      want: [
        'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    },
    {
      name: 'metadata finalizers too',
      obj: ns({}, { finalizers: ['custom'] }),
      want: [
        'metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(strategy.validate?.(c.obj, ctx)), c.want));
  }
});

describe('Namespace update', () => {
  const old = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  it('the main resource cannot change status or spec.finalizers', () => {
    const next = ns({ spec: { finalizers: [] }, status: { phase: 'Terminating' } });
    strategy.prepareForUpdate?.(next, old, ctx);
    assert.deepEqual(next.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(next.status, { phase: 'Active' });
  });
  it('status writes keep the spec', () => {
    const next = ns({ spec: { finalizers: [] }, status: { phase: 'Active', conditions: [] } });
    namespaceStatusStrategy.prepareForUpdate?.(next, old, ctx);
    assert.deepEqual(next.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(next.status, { phase: 'Active', conditions: [] });
  });
  const phaseCases: { name: string; obj: KubeObject; want: string[] }[] = [
    { name: 'Active while live', obj: ns({ status: { phase: 'Active' } }), want: [] },
    {
      name: 'Terminating while live',
      obj: ns({ status: { phase: 'Terminating' } }),
      want: [
        'status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty',
      ],
    },
    {
      name: 'Active while deleting',
      obj: ns({ status: { phase: 'Active' } }, { deletionTimestamp: '2024-01-01T00:00:00Z' }),
      want: [
        'status.Phase: Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty',
      ],
    },
  ];
  for (const c of phaseCases) {
    it(`status phase: ${c.name}`, () =>
      assert.deepEqual(show(namespaceStatusStrategy.validateUpdate?.(c.obj, old, ctx)), c.want));
  }
  it('finalize writes keep the status and check each finalizer by index', () => {
    const next = ns({ spec: { finalizers: ['ok.io/a', 'bad'] }, status: { phase: 'Terminating' } });
    namespaceFinalizeStrategy.prepareForUpdate?.(next, old, ctx);
    assert.deepEqual(next.status, { phase: 'Active' });
    assert.deepEqual(show(namespaceFinalizeStrategy.validateUpdate?.(next, old, ctx)), [
      'spec.finalizers[1]: Invalid value: "bad": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });
  it('is wired as the subresource strategies', () => {
    assert.equal(namespaceDefinition.subresourceStrategies?.status, namespaceStatusStrategy);
    assert.equal(namespaceDefinition.subresourceStrategies?.finalize, namespaceFinalizeStrategy);
  });
});

describe('Namespace deletion and selection', () => {
  it('turns Terminating and reports spec.finalizers as pending', () => {
    const obj = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    strategy.prepareForDelete?.(obj, ctx);
    assert.deepEqual(obj.status, { phase: 'Terminating' });
    assert.deepEqual(strategy.finalizers?.(obj), ['kubernetes']);
    assert.deepEqual(strategy.finalizers?.(ns()), []);
  });
  it('field selectors: status.phase and the legacy bare name', () => {
    assert.deepEqual(strategy.selectableFields?.(ns({ status: { phase: 'Active' } })), {
      'status.phase': 'Active',
      name: 'team-a',
    });
  });
  it('Status column shows the phase', () => {
    const column = namespaceDefinition.printerColumns?.find((c) => c.name === 'Status');
    assert.equal(column?.cell?.(ns({ status: { phase: 'Terminating' } }), 0), 'Terminating');
  });
});
