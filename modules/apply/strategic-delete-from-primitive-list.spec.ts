/** `$deleteFromPrimitiveList/<list>`: values to take out of a list of scalars. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import { applyStrategicMergePatch } from './strategic-merge.js';
import { widget, widgetSchema } from '../../test/support/strategic-fixtures.js';

type Spec = Record<string, unknown>;

const run = (original: Spec, patch: Spec) =>
  (applyStrategicMergePatch(widget(original), { spec: patch }, widgetSchema) as { spec: Spec }).spec;

const results: { name: string; original: Spec; patch: Spec; result: Spec }[] = [
  {
    name: 'removes every occurrence of the values',
    original: { hostnames: ['a', 'b', 'a', 'c'] },
    patch: { '$deleteFromPrimitiveList/hostnames': ['a'] },
    result: { hostnames: ['b', 'c'] },
  },
  {
    name: 'removes numbers',
    original: { weights: [1, 2, 3] },
    patch: { '$deleteFromPrimitiveList/weights': [2, 9] },
    result: { weights: [1, 3] },
  },
  {
    name: 'values that are not there change nothing',
    original: { hostnames: ['a'] },
    patch: { '$deleteFromPrimitiveList/hostnames': ['z'] },
    result: { hostnames: ['a'] },
  },
  {
    name: 'works together with additions and $setElementOrder',
    original: { hostnames: ['a', 'b', 'c'] },
    patch: {
      '$setElementOrder/hostnames': ['a', 'd'],
      hostnames: ['d'],
      '$deleteFromPrimitiveList/hostnames': ['b', 'c'],
    },
    result: { hostnames: ['a', 'd'] },
  },
  {
    name: 'does not create a list the original lacks',
    original: { nodeSelector: { a: 'b' } },
    patch: { '$deleteFromPrimitiveList/hostnames': ['a'] },
    result: { nodeSelector: { a: 'b' } },
  },
  {
    name: 'also applies to a list without the merge strategy',
    original: { containers: [{ name: 'w', args: ['-x', '-y', '-z'] }] },
    patch: { containers: [{ name: 'w', '$deleteFromPrimitiveList/args': ['-y'] }] },
    result: { containers: [{ name: 'w', args: ['-x', '-z'] }] },
  },
  {
    name: 'null as the deletion list removes the whole field',
    original: { hostnames: ['a'], weights: [1] },
    patch: { '$deleteFromPrimitiveList/hostnames': null },
    result: { weights: [1] },
  },
];

describe('strategic merge: $deleteFromPrimitiveList', () => {
  for (const c of results) {
    it(c.name, () => assert.deepEqual(run(c.original, c.patch), c.result));
  }

  it('a key without the slash is a 400', () => {
    assert.throws(
      () => run({ hostnames: ['a'] }, { $deleteFromPrimitiveListhostnames: ['a'] }),
      (err: unknown) =>
        err instanceof ApiError &&
        err.code === 400 &&
        err.message === 'invalid patch format of primitive list',
    );
  });
});
