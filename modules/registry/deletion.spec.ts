/** Which garbage-collector finalizers a delete puts on an object: kube's precedence of options, finalizers, kind. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/index.js';
import type { GarbageCollectionPolicy, ResourceDefinition } from './definition.js';
import { deletionFinalizers, preconditionFailure, type DeleteOptions } from './deletion.js';

const kind = (policy?: GarbageCollectionPolicy) =>
  ({ group: '', resource: 'things', garbageCollectionPolicy: policy }) as unknown as ResourceDefinition;
const obj = (finalizers?: string[]): KubeObject => ({
  metadata: { name: 'x', uid: 'u1', ...(finalizers ? { finalizers } : {}) },
});

const cases: {
  name: string;
  policy?: GarbageCollectionPolicy;
  finalizers?: string[];
  options: DeleteOptions;
  want: string[] | undefined;
}[] = [
  { name: 'no options: background, nothing added', options: {}, want: undefined },
  { name: 'Background', options: { propagationPolicy: 'Background' }, want: undefined },
  { name: 'Foreground', options: { propagationPolicy: 'Foreground' }, want: ['foregroundDeletion'] },
  { name: 'Orphan', options: { propagationPolicy: 'Orphan' }, want: ['orphan'] },
  { name: 'orphanDependents: true', options: { orphanDependents: true }, want: ['orphan'] },
  { name: 'orphanDependents: false is background', options: { orphanDependents: false }, want: undefined },
  {
    name: 'other finalizers keep their order; the GC one goes last',
    finalizers: ['a.io/x', 'b.io/y'],
    options: { propagationPolicy: 'Foreground' },
    want: ['a.io/x', 'b.io/y', 'foregroundDeletion'],
  },
  {
    name: 'a second delete switches orphan to foreground',
    finalizers: ['orphan', 'a.io/x'],
    options: { propagationPolicy: 'Foreground' },
    want: ['a.io/x', 'foregroundDeletion'],
  },
  {
    name: 'Background drops a GC finalizer the object carries',
    finalizers: ['foregroundDeletion'],
    options: { propagationPolicy: 'Background' },
    want: [],
  },
  {
    name: 'no options: a GC finalizer the object carries is honoured',
    finalizers: ['orphan'],
    options: {},
    want: undefined,
  },
  {
    name: 'no options: the first GC finalizer carried wins',
    finalizers: ['foregroundDeletion', 'orphan'],
    options: {},
    want: ['foregroundDeletion'],
  },
  {
    name: "the kind's default: OrphanDependents",
    policy: 'OrphanDependents',
    options: {},
    want: ['orphan'],
  },
  {
    name: 'options override the kind',
    policy: 'OrphanDependents',
    options: { propagationPolicy: 'Background' },
    want: undefined,
  },
  {
    name: 'Unsupported kinds never get them, and lose any they carry',
    policy: 'Unsupported',
    finalizers: ['orphan', 'a.io/x'],
    options: { propagationPolicy: 'Foreground' },
    want: ['a.io/x'],
  },
  {
    name: 'Unsupported, nothing to change',
    policy: 'Unsupported',
    options: { orphanDependents: true },
    want: undefined,
  },
];

describe('deletionFinalizers', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(deletionFinalizers(kind(c.policy), obj(c.finalizers), c.options), c.want);
    });
  }
});

describe('preconditionFailure', () => {
  const gr = { group: '', resource: 'things' };
  it('holds when the uid and revision match or are not asked', () => {
    assert.equal(preconditionFailure(gr, obj(), 7, {}), undefined);
    assert.equal(
      preconditionFailure(gr, obj(), 7, { preconditions: { uid: 'u1', resourceVersion: '7' } }),
      undefined,
    );
  });
  it("answers kube's 409 for another uid or revision", () => {
    assert.equal(
      preconditionFailure(gr, obj(), 7, { preconditions: { uid: 'u2' } })?.message,
      'Operation cannot be fulfilled on things "x": Precondition failed: UID in precondition: u2, UID in object meta: u1',
    );
    assert.equal(
      preconditionFailure(gr, obj(), 7, { preconditions: { resourceVersion: '6' } })?.message,
      'Operation cannot be fulfilled on things "x": Precondition failed: ResourceVersion in precondition: 6, ResourceVersion in object meta: 7',
    );
  });
});
