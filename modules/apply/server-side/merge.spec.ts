import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldSet } from '../managed-fields/field-set.js';
import { key, makePath } from '../managed-fields/path-element.js';
import { widgetSpecSchema } from '../../../test/support/apply-schemas.js';
import { mergeObjects } from './merge.js';
import { dropRemovalNulls, removeItems } from './remove-items.js';

const merge = (live: unknown, config: unknown): unknown => mergeObjects(live, config, widgetSpecSchema);

describe('mergeObjects', () => {
  const cases: Array<[string, unknown, unknown, unknown]> = [
    [
      'the configuration wins on scalars',
      { replicas: 1, paused: true },
      { replicas: 2 },
      { replicas: 2, paused: true },
    ],
    [
      'granular maps merge by key',
      { env: { A: '1', B: '2' } },
      { env: { B: '3', C: '4' } },
      { env: { A: '1', B: '3', C: '4' } },
    ],
    [
      'atomic maps are replaced',
      { selector: { a: '1', b: '2' } },
      { selector: { c: '3' } },
      { selector: { c: '3' } },
    ],
    [
      'atomic structs are replaced',
      { target: { kind: 'K', name: 'n' } },
      { target: { name: 'm' } },
      { target: { name: 'm' } },
    ],
    ['atomic lists are replaced', { args: ['a', 'b'] }, { args: ['c'] }, { args: ['c'] }],
    [
      'sets merge, new members in configuration order',
      { tags: ['a', 'b'] },
      { tags: ['c', 'a'] },
      { tags: ['c', 'a', 'b'] },
    ],
    [
      'keyed lists merge item by item',
      {
        containers: [
          { name: 'a', image: '1' },
          { name: 'b', image: '2', args: ['x'] },
        ],
      },
      { containers: [{ name: 'b', image: '3' }, { name: 'c' }] },
      { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '3', args: ['x'] }, { name: 'c' }] },
    ],
    [
      'items the configuration names move to its order, live-only items keep their place',
      { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
      { containers: [{ name: 'c' }, { name: 'a' }] },
      { containers: [{ name: 'b' }, { name: 'c' }, { name: 'a' }] },
    ],
    [
      'keys completed from their defaults match live items',
      { ports: [{ port: 80, protocol: 'TCP', name: 'old' }] },
      { ports: [{ port: 80, name: 'new' }] },
      { ports: [{ port: 80, protocol: 'TCP', name: 'new' }] },
    ],
    ['null does not clear a granular map', { env: { A: '1' } }, { env: null }, { env: { A: '1' } }],
    ['an empty map is kept when nothing was there', {}, { env: {} }, { env: {} }],
    [
      'unstructured values merge as maps',
      { extra: { a: { b: 1 } } },
      { extra: { a: { c: 2 } } },
      { extra: { a: { b: 1, c: 2 } } },
    ],
  ];
  for (const [name, live, config, expected] of cases) {
    it(name, () => assert.deepEqual(merge(live, config), expected));
  }

  it('replaces repeated live items with the configuration’s one', () => {
    const live = {
      containers: [
        { name: 'a', image: '1' },
        { name: 'a', image: '2' },
      ],
    };
    assert.deepEqual(merge(live, { containers: [{ name: 'a', args: ['z'] }] }), {
      containers: [{ name: 'a', args: ['z'] }],
    });
  });

  it('does not change its inputs', () => {
    const live = { env: { A: '1' } };
    merge(live, { env: { B: '2' } });
    assert.deepEqual(live, { env: { A: '1' } });
  });
});

describe('removeItems', () => {
  const P = makePath;
  const value = {
    replicas: 1,
    env: { A: '1', B: '2' },
    containers: [{ name: 'a', image: 'x' }, { name: 'b' }],
    tags: ['t'],
  };
  const cases: Array<[string, FieldSet, unknown]> = [
    [
      'a scalar',
      FieldSet.of(P('replicas')),
      { env: { A: '1', B: '2' }, containers: value.containers, tags: ['t'] },
    ],
    ['a map key', FieldSet.of(P('env', 'A')), { ...value, env: { B: '2' } }],
    [
      'a keyed item',
      FieldSet.of(P('containers', key({ name: 'a' }))),
      { ...value, containers: [{ name: 'b' }] },
    ],
    [
      'a field of an item',
      FieldSet.of(P('containers', key({ name: 'a' }), 'image')),
      { ...value, containers: [{ name: 'a' }, { name: 'b' }] },
    ],
    [
      'every key of a map leaves null, as kube does',
      FieldSet.of(P('env', 'A'), P('env', 'B')),
      { ...value, env: null },
    ],
  ];
  for (const [name, set, expected] of cases) {
    it(`removes ${name}`, () => assert.deepEqual(removeItems(value, set, widgetSpecSchema), expected));
  }

  it('drops the nulls removal left, but not nulls that were there', () => {
    const before = { env: { A: '1' }, replicas: null };
    const after = removeItems(before, FieldSet.of(P('env', 'A')), widgetSpecSchema);
    assert.deepEqual(after, { env: null, replicas: null });
    assert.deepEqual(dropRemovalNulls(after, before, widgetSpecSchema), { replicas: null });
  });
});
