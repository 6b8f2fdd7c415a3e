/** What the collector does with an object, given its owners' states and what it owns: kube's choices. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../api/index.js';
import {
  decide,
  ownerReferencesOf,
  unblocked,
  withoutOwners,
  type Decision,
  type DependentView,
  type OwnerState,
} from './garbage-collector-decisions.js';

const ref = (uid: string, blockOwnerDeletion?: boolean): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: `owner-${uid}`,
  uid,
  ...(blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion }),
});

function object(refs: string[], meta: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    metadata: {
      name: 'item',
      namespace: 'ns',
      uid: 'item',
      ...(refs.length > 0 ? { ownerReferences: refs.map((u) => ref(u)) } : {}),
      ...meta,
    },
  };
}

const deleting = { deletionTimestamp: '2026-01-01T00:00:00Z' };
const dep = (uid: string, blocking: boolean, deletingDependents = false): DependentView => ({
  uid,
  blocking,
  deletingDependents,
});

interface Case {
  name: string;
  object: KubeObject;
  owners?: OwnerState[];
  dependents?: DependentView[];
  want: Decision;
}

const cases: Case[] = [
  { name: 'no owners: left alone', object: object([]), want: { action: 'none' } },
  { name: 'its one owner is there', object: object(['a']), owners: ['live'], want: { action: 'none' } },
  {
    name: 'its one owner is gone: deleted in the background',
    object: object(['a']),
    owners: ['absent'],
    want: { action: 'delete', policy: 'Background' },
  },
  {
    name: 'every owner gone: deleted',
    object: object(['a', 'b']),
    owners: ['absent', 'absent'],
    want: { action: 'delete', policy: 'Background' },
  },
  {
    name: 'one live owner of two: survives, the gone owner’s reference taken out',
    object: object(['a', 'b']),
    owners: ['absent', 'live'],
    want: { action: 'removeReferences', uids: ['a'] },
  },
  {
    name: 'a live owner and one waiting in the foreground: the waiting one loses its reference',
    object: object(['a', 'b']),
    owners: ['live', 'waiting'],
    want: { action: 'removeReferences', uids: ['b'] },
  },
  {
    name: 'its owner deletes in the foreground: deleted, background as it owns nothing',
    object: object(['a']),
    owners: ['waiting'],
    want: { action: 'delete', policy: 'Background' },
  },
  {
    name: 'its owner deletes in the foreground and it owns objects: deleted in the foreground too',
    object: object(['a']),
    owners: ['waiting'],
    dependents: [dep('c', true)],
    want: { action: 'delete', policy: 'Foreground' },
  },
  {
    name: 'foreground owner, and one of its dependents waits in the foreground too: unblocked first',
    object: object(['a']),
    owners: ['waiting'],
    dependents: [dep('c', true, true)],
    want: { action: 'delete', policy: 'Foreground', unblock: true },
  },
  {
    name: 'one owner gone, one waiting: deleted',
    object: object(['a', 'b']),
    owners: ['absent', 'waiting'],
    want: { action: 'delete', policy: 'Background' },
  },
  {
    name: 'an ownerless object carrying `orphan` is deleted orphaning its own dependents',
    object: object(['a'], { finalizers: ['orphan'] }),
    owners: ['absent'],
    want: { action: 'delete', policy: 'Orphan' },
  },
  {
    name: 'an ownerless object carrying `foregroundDeletion` (not deleting yet) goes in the foreground',
    object: object(['a'], { finalizers: ['foregroundDeletion'] }),
    owners: ['absent'],
    want: { action: 'delete', policy: 'Foreground' },
  },
  {
    name: 'an owner of unknown kind: left alone, to be tried again when kinds change',
    object: object(['a', 'b']),
    owners: ['absent', 'unresolvable'],
    want: { action: 'none', unresolvable: true },
  },
  {
    name: 'already being deleted (background): left to finish',
    object: object(['a'], { ...deleting, finalizers: ['example.com/hold'] }),
    owners: ['absent'],
    want: { action: 'none' },
  },
  {
    name: 'being deleted orphaning: the orphan queue handles it',
    object: object([], { ...deleting, finalizers: ['orphan'] }),
    want: { action: 'none' },
  },
  {
    name: 'foreground owner without dependents: finished',
    object: object([], { ...deleting, finalizers: ['foregroundDeletion'] }),
    want: { action: 'finishForeground' },
  },
  {
    name: 'foreground owner whose dependents do not block: finished',
    object: object([], { ...deleting, finalizers: ['foregroundDeletion'] }),
    dependents: [dep('c', false), dep('d', false)],
    want: { action: 'finishForeground' },
  },
  {
    name: 'foreground owner with blocking dependents: those are looked at, it waits',
    object: object([], { ...deleting, finalizers: ['foregroundDeletion'] }),
    dependents: [dep('c', true), dep('d', false), dep('e', true)],
    want: { action: 'visitDependents', uids: ['c', 'e'] },
  },
  {
    name: 'foreground owner whose blocking dependents wait themselves: nothing to do but wait',
    object: object([], { ...deleting, finalizers: ['foregroundDeletion'] }),
    dependents: [dep('c', true, true)],
    want: { action: 'none' },
  },
  {
    name: 'foreground owner that has an owner of its own: still only waits for its dependents',
    object: object(['a'], { ...deleting, finalizers: ['foregroundDeletion'] }),
    owners: ['absent'],
    want: { action: 'finishForeground' },
  },
];

describe('garbage collector: decide', () => {
  for (const c of cases) {
    it(c.name, () => {
      const refs = c.object.metadata.ownerReferences ?? [];
      const owners = c.owners ?? refs.map((): OwnerState => 'live');
      assert.equal(owners.length, refs.length, 'one state per reference');
      assert.deepEqual(decide({ object: c.object, owners, dependents: c.dependents ?? [] }), c.want);
    });
  }
});

describe('garbage collector: reference edits', () => {
  it('withoutOwners drops the references naming the uids, keeping the others in order', () => {
    const refs = [ref('a'), ref('b'), ref('c')];
    assert.deepEqual(
      withoutOwners(refs, ['b']).map((r) => r.uid),
      ['a', 'c'],
    );
    assert.deepEqual(withoutOwners(refs, ['x']), refs);
  });

  it('ownerReferencesOf reads only well-formed references (never throws on what storage holds)', () => {
    const odd = (refs: unknown) => ({ metadata: { ownerReferences: refs } }) as unknown as KubeObject;
    assert.deepEqual(ownerReferencesOf(odd(undefined)), []);
    assert.deepEqual(ownerReferencesOf(odd({ uid: 'a' })), []);
    assert.deepEqual(ownerReferencesOf(odd([null, 'x', { uid: 1 }, ref('a')])), [ref('a')]);
  });

  it('unblocked turns every blockOwnerDeletion off and leaves the rest', () => {
    assert.deepEqual(unblocked([ref('a', true), ref('b', false), ref('c')]), [
      ref('a', false),
      ref('b', false),
      ref('c'),
    ]);
  });
});
