/** `$patch` inside the elements of a merging list of maps. */
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
    name: '$patch: delete removes the element with that key',
    original: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
    patch: { containers: [{ name: 'b', $patch: 'delete' }] },
    result: { containers: [{ name: 'a' }, { name: 'c' }] },
  },
  {
    name: '$patch: delete removes every element with that key',
    original: { containers: [{ name: 'a' }, { name: 'b', image: '1' }, { name: 'b', image: '2' }] },
    patch: { containers: [{ name: 'b', $patch: 'delete' }] },
    result: { containers: [{ name: 'a' }] },
  },
  {
    name: '$patch: delete of a key that is not there changes nothing',
    original: { containers: [{ name: 'a' }] },
    patch: { containers: [{ name: 'zz', $patch: 'delete' }] },
    result: { containers: [{ name: 'a' }] },
  },
  {
    name: 'deletions and merges in one patch',
    original: { containers: [{ name: 'a' }, { name: 'b' }] },
    patch: { containers: [{ name: 'a', $patch: 'delete' }, { name: 'b', image: 'x' }, { name: 'c' }] },
    result: { containers: [{ name: 'b', image: 'x' }, { name: 'c' }] },
  },
  {
    name: '$patch: replace alone empties the list',
    original: { containers: [{ name: 'a' }, { name: 'b' }] },
    patch: { containers: [{ $patch: 'replace' }] },
    result: { containers: [] },
  },
  {
    name: '$patch: replace makes the other patch elements the whole list',
    original: { containers: [{ name: 'a', image: 'old' }, { name: 'b' }] },
    patch: { containers: [{ name: 'c' }, { $patch: 'replace' }, { name: 'a' }] },
    result: { containers: [{ name: 'c' }, { name: 'a' }] },
  },
  {
    name: 'a new element is appended as sent, nested directives included',
    original: { containers: [{ name: 'a' }] },
    patch: { containers: [{ name: 'b', env: [{ name: 'E', $patch: 'delete' }] }] },
    result: { containers: [{ name: 'b', env: [{ name: 'E', $patch: 'delete' }] }, { name: 'a' }] },
  },
];

describe('strategic merge: $patch in list elements', () => {
  for (const c of results) {
    it(c.name, () => assert.deepEqual(run(c.original, c.patch), c.result));
  }

  const failures: { name: string; original: Spec; patch: Spec; message: string }[] = [
    {
      name: '$patch: merge is not supported in lists',
      original: { containers: [{ name: 'a' }] },
      patch: { containers: [{ name: 'a', $patch: 'merge' }] },
      message: 'merging lists cannot yet be specified in the patch',
    },
    {
      name: 'an unknown directive',
      original: { containers: [{ name: 'a' }] },
      patch: { containers: [{ name: 'a', $patch: 'drop' }] },
      message: 'unknown patch type: drop in map: map[$patch:drop name:a]',
    },
    {
      name: 'a delete without the merge key',
      original: { containers: [{ name: 'a' }] },
      patch: { containers: [{ $patch: 'delete', image: 'x' }] },
      message: 'map: map[$patch:delete image:x] does not contain declared merge key: name',
    },
    {
      name: 'an element without the merge key',
      original: { containers: [{ name: 'a' }] },
      patch: { containers: [{ image: 'x' }] },
      message: 'map: map[image:x] does not contain declared merge key: name',
    },
    {
      name: 'an element that is not a map',
      original: { containers: [{ name: 'a' }] },
      patch: { containers: ['a'] },
      message: 'list element types are not identical: [[map[name:a]] [a]]',
    },
  ];
  for (const c of failures) {
    it(`${c.name} is a 400`, () => {
      assert.throws(
        () => run(c.original, c.patch),
        (err: unknown) =>
          err instanceof ApiError &&
          err.code === 400 &&
          err.reason === 'BadRequest' &&
          err.message === c.message,
      );
    });
  }
});
