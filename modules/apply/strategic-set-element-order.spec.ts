/** `$setElementOrder/<list>`: the final order of a list, sent by kubectl beside the list's changes. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import { applyStrategicMergePatch } from './strategic-merge.js';
import { widget, widgetSchema } from '../../test/support/strategic-fixtures.js';

type Spec = Record<string, unknown>;

const run = (original: Spec, patch: Spec) =>
  (applyStrategicMergePatch(widget(original), { spec: patch }, widgetSchema) as { spec: Spec }).spec;

const names = (...n: string[]) => n.map((name) => ({ name }));

const results: { name: string; original: Spec; patch: Spec; result: Spec }[] = [
  {
    name: 'reorders a keyed list without changing it',
    original: {
      containers: [
        { name: 'a', image: '1' },
        { name: 'b', image: '2' },
      ],
    },
    patch: { '$setElementOrder/containers': names('b', 'a') },
    result: {
      containers: [
        { name: 'b', image: '2' },
        { name: 'a', image: '1' },
      ],
    },
  },
  {
    name: 'places new elements where the order says',
    original: {
      containers: [
        { name: 'b', image: '2' },
        { name: 'd', image: '4' },
      ],
    },
    patch: {
      '$setElementOrder/containers': names('a', 'b', 'c', 'd'),
      containers: [
        { name: 'a', image: '1' },
        { name: 'c', image: '3' },
      ],
    },
    result: {
      containers: [
        { name: 'a', image: '1' },
        { name: 'b', image: '2' },
        { name: 'c', image: '3' },
        { name: 'd', image: '4' },
      ],
    },
  },
  {
    name: 'keeps elements only the server has in their place',
    original: { containers: names('a', 'x', 'b') },
    patch: { '$setElementOrder/containers': names('b', 'a'), containers: [{ name: 'a', image: 'i' }] },
    result: { containers: [{ name: 'x' }, { name: 'b' }, { name: 'a', image: 'i' }] },
  },
  {
    name: 'ignores names the list does not have',
    original: { containers: names('a', 'c') },
    patch: { '$setElementOrder/containers': names('c', 'b', 'a') },
    result: { containers: names('c', 'a') },
  },
  {
    name: 'orders a list of scalars',
    original: { hostnames: ['a', 'b', 'c'] },
    patch: { '$setElementOrder/hostnames': ['c', 'd', 'a', 'b'], hostnames: ['d'] },
    result: { hostnames: ['c', 'd', 'a', 'b'] },
  },
  {
    name: 'orders a list the original lacks, dropping directive elements',
    original: {},
    patch: {
      '$setElementOrder/containers': names('b', 'a'),
      containers: [{ name: 'b' }, { name: 'z', $patch: 'delete' }, { name: 'a' }],
    },
    result: { containers: names('b', 'a') },
  },
  {
    name: 'orders a list of scalars that is replaced rather than merged',
    original: { containers: [{ name: 'w', args: ['a', 'b'] }] },
    patch: { containers: [{ name: 'w', '$setElementOrder/args': ['c', 'a'], args: ['c', 'a'] }] },
    result: { containers: [{ name: 'w', args: ['c', 'a'] }] },
  },
  {
    name: 'a deletion in the list is not part of the order',
    original: { containers: names('a', 'b', 'c') },
    patch: { '$setElementOrder/containers': names('c', 'a'), containers: [{ name: 'b', $patch: 'delete' }] },
    result: { containers: names('c', 'a') },
  },
];

describe('strategic merge: $setElementOrder', () => {
  for (const c of results) {
    it(c.name, () => assert.deepEqual(run(c.original, c.patch), c.result));
  }

  const failures: { name: string; original: Spec; patch: Spec; message: string }[] = [
    {
      name: 'an order that contradicts the patch list',
      original: { containers: names('a', 'b', 'c') },
      patch: { '$setElementOrder/containers': names('a', 'b', 'c'), containers: names('c', 'a') },
      message:
        "the order in patch list:\n[map[name:c] map[name:a]]\n doesn't match $setElementOrder list:\n" +
        '[map[name:a] map[name:b] map[name:c]]',
    },
    {
      name: 'an order list for scalars that contradicts the patch list',
      original: { hostnames: ['a'] },
      patch: { '$setElementOrder/hostnames': ['a', 'b'], hostnames: ['b', 'a'] },
      message: "the order in patch list:\n[b a]\n doesn't match $setElementOrder list:\n[a b]",
    },
    {
      name: 'a key without the slash',
      original: { containers: names('a') },
      patch: { $setElementOrdercontainers: names('a') },
      message: 'invalid patch format of setElementOrder list',
    },
    {
      name: 'an order that is not a list',
      original: { containers: names('a') },
      patch: { '$setElementOrder/containers': 'a' },
      message: 'expected a []interface {}, but received a string',
    },
    {
      name: 'order entries without the merge key',
      original: { containers: names('a') },
      patch: { '$setElementOrder/containers': [{ image: 'x' }], containers: names('a') },
      message: 'map: map[image:x] does not contain declared merge key: name',
    },
    {
      name: 'a field the struct does not have',
      original: {},
      patch: { '$setElementOrder/nope': [] },
      message: 'unable to find api field in struct WidgetSpec for the json field "nope"',
    },
    {
      // ordering a list of maps needs a merge key, which a list without the merge strategy lacks
      name: 'an order for a list of maps that is not merged',
      original: { tolerations: [{ key: 'x' }] },
      patch: { '$setElementOrder/tolerations': [], tolerations: [{ key: 'b' }] },
      message: 'map: map[key:b] does not contain declared merge key: ',
    },
    {
      name: 'an order for a list that is empty on both sides',
      original: { hostnames: [] },
      patch: { '$setElementOrder/hostnames': [] },
      message: 'no elements in any of the given slices',
    },
  ];
  for (const c of failures) {
    it(`${c.name} is a 400`, () => {
      assert.throws(
        () => run(c.original, c.patch),
        (err: unknown) => err instanceof ApiError && err.code === 400 && err.message === c.message,
      );
    });
  }
});
