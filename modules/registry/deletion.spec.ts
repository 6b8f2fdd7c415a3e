/**
 * What a delete decides before it writes: which garbage-collector finalizers an object gets (kube's precedence
 * of options, finalizers, kind), its preconditions, and its grace period (kube's rest.BeforeDelete).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/index.js';
import type { GarbageCollectionPolicy, ResourceDefinition, Strategy } from './definition.js';
import { beforeDelete, deletionFinalizers, preconditionFailure, type DeleteOptions } from './deletion.js';

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
  const gr = { group: 'example.com', resource: 'Thing' };
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
      'Operation cannot be fulfilled on Thing.example.com "x": the UID in the precondition (u2) does not match the UID in record (u1). The object might have been deleted and then recreated',
    );
    assert.equal(
      preconditionFailure(gr, obj(), 7, { preconditions: { resourceVersion: '6' } })?.message,
      'Operation cannot be fulfilled on Thing.example.com "x": the ResourceVersion in the precondition (6) does not match the ResourceVersion in record (7). The object might have been modified',
    );
  });
});

describe('beforeDelete', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const at = (seconds: number) => new Date(now + seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
  /** a graceful kind: 30 s unless asked, at once (undefined) when the object says so */
  const asked: (number | undefined)[] = [];
  const graceful: Strategy = {
    gracePeriodSeconds: (o, requested) => {
      asked.push(requested);
      return o.metadata.labels?.now ? undefined : (requested ?? 30);
    },
  };
  const live = (meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({
    metadata: { name: 'x', uid: 'u1', ...meta },
  });
  const terminating = (grace: number | null | undefined, dueIn = 30) =>
    live({ deletionTimestamp: at(dueIn), deletionGracePeriodSeconds: grace });

  const cases: {
    name: string;
    strategy?: Strategy;
    object: KubeObject;
    options?: DeleteOptions;
    want: { graceful: boolean; pending: boolean; gracePeriodSeconds?: number };
    meta?: { deletionTimestamp?: string; deletionGracePeriodSeconds?: number | null; generation?: number };
    asked?: number | undefined;
  }[] = [
    {
      name: 'a kind without the hook is never graceful',
      strategy: {},
      object: live(),
      options: { gracePeriodSeconds: 10 },
      want: { graceful: false, pending: false },
      meta: {},
    },
    {
      name: "a live object gets the kind's period: deletionTimestamp now + grace",
      object: live(),
      want: { graceful: true, pending: false, gracePeriodSeconds: 30 },
      meta: { deletionTimestamp: at(30), deletionGracePeriodSeconds: 30 },
      asked: undefined,
    },
    {
      name: 'the asked period goes to the hook',
      object: live(),
      options: { gracePeriodSeconds: 5 },
      want: { graceful: true, pending: false, gracePeriodSeconds: 5 },
      meta: { deletionTimestamp: at(5), deletionGracePeriodSeconds: 5 },
      asked: 5,
    },
    {
      name: 'a negative asked period is one second',
      object: live(),
      options: { gracePeriodSeconds: -3 },
      want: { graceful: true, pending: false, gracePeriodSeconds: 1 },
      meta: { deletionTimestamp: at(1), deletionGracePeriodSeconds: 1 },
      asked: 1,
    },
    {
      name: 'grace 0 is graceful too: written, then removed',
      object: live(),
      options: { gracePeriodSeconds: 0 },
      want: { graceful: true, pending: false, gracePeriodSeconds: 0 },
      meta: { deletionTimestamp: at(0), deletionGracePeriodSeconds: 0 },
    },
    {
      name: 'an absurd period ends at the last time RFC 3339 can write',
      object: live(),
      options: { gracePeriodSeconds: Number.MAX_SAFE_INTEGER },
      want: { graceful: true, pending: false, gracePeriodSeconds: Number.MAX_SAFE_INTEGER },
      meta: {
        deletionTimestamp: '9999-12-31T23:59:59Z',
        deletionGracePeriodSeconds: Number.MAX_SAFE_INTEGER,
      },
    },
    {
      name: 'the generation counts the start of the deletion',
      object: live({ generation: 3 }),
      want: { graceful: true, pending: false, gracePeriodSeconds: 30 },
      meta: { deletionTimestamp: at(30), deletionGracePeriodSeconds: 30, generation: 4 },
    },
    {
      name: 'the hook may say "at once"',
      object: live({ labels: { now: 'yes' } }),
      want: { graceful: false, pending: false },
      meta: {},
    },
    {
      name: 'Terminating, no period asked: pending, untouched',
      object: terminating(30),
      want: { graceful: false, pending: true },
      meta: { deletionTimestamp: at(30), deletionGracePeriodSeconds: 30 },
    },
    {
      name: 'Terminating, the same period asked: pending',
      object: terminating(30),
      options: { gracePeriodSeconds: 30 },
      want: { graceful: false, pending: true },
    },
    {
      name: 'Terminating, a longer period asked: never lengthened',
      object: terminating(30),
      options: { gracePeriodSeconds: 120 },
      want: { graceful: false, pending: true },
      meta: { deletionTimestamp: at(30), deletionGracePeriodSeconds: 30 },
    },
    {
      name: 'Terminating, a shorter period: the deletionTimestamp moves back by the difference',
      object: terminating(30, 20),
      options: { gracePeriodSeconds: 5 },
      want: { graceful: true, pending: false, gracePeriodSeconds: 5 },
      meta: { deletionTimestamp: at(-5), deletionGracePeriodSeconds: 5 },
    },
    {
      name: 'Terminating, cut to 0',
      object: terminating(30),
      options: { gracePeriodSeconds: 0 },
      want: { graceful: true, pending: false, gracePeriodSeconds: 0 },
      meta: { deletionTimestamp: at(0), deletionGracePeriodSeconds: 0 },
    },
    {
      name: 'Terminating with grace 0 (finalizers holding it): not graceful, goes as finalizers allow',
      object: terminating(0, 0),
      options: { gracePeriodSeconds: 10 },
      want: { graceful: false, pending: false },
    },
    {
      name: 'Terminating without a grace period: not graceful',
      object: terminating(null, 0),
      want: { graceful: false, pending: false },
    },
    {
      name: 'a stored negative grace period is one second, which 0 shortens',
      object: terminating(-4, 1),
      options: { gracePeriodSeconds: 0 },
      want: { graceful: true, pending: false, gracePeriodSeconds: 0 },
      meta: { deletionTimestamp: at(0), deletionGracePeriodSeconds: 0 },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      asked.length = 0;
      const object = structuredClone(c.object);
      const got = beforeDelete(c.strategy ?? graceful, object, c.options ?? {}, now);
      assert.deepEqual(got, c.want);
      if (c.meta) {
        const { deletionTimestamp, deletionGracePeriodSeconds, generation } = object.metadata;
        const seen = Object.fromEntries(
          Object.entries({ deletionTimestamp, deletionGracePeriodSeconds, generation }).filter(
            ([, v]) => v !== undefined,
          ),
        );
        assert.deepEqual(seen, c.meta);
      }
      if ('asked' in c) assert.deepEqual(asked, [c.asked]);
    });
  }
});
