import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema } from '../api/index.js';
import { validateListTypes, validateListTypesUpdate } from './list-types.js';

const set: Schema = {
  type: 'array',
  'x-kubernetes-list-type': 'set',
  items: { 'x-kubernetes-preserve-unknown-fields': true },
};
const mapList = (keys: string[]): Schema => ({
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
  items: { type: 'object', properties: { name: { type: 'string' }, proto: { type: 'string' } } },
});
const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        tags: set,
        ports: mapList(['name']),
        pairs: mapList(['name', 'proto']),
        byKey: { type: 'object', additionalProperties: set },
        nested: { type: 'array', items: { type: 'object', properties: { tags: set } } },
      },
    },
  },
};
const check = (spec: unknown): string[] => validateListTypes(schema, { spec }).map(formatFieldError);

const cases: [string, unknown, string[]][] = [
  ['a set without repeats', { tags: ['a', 'b'] }, []],
  [
    'each repeat once, at its second occurrence',
    { tags: ['a', 'b', 'a', 'a', 'b'] },
    ['spec.tags[2]: Duplicate value: "a"', 'spec.tags[4]: Duplicate value: "b"'],
  ],
  ['1 and "1" differ', { tags: [1, '1'] }, []],
  [
    'objects in a set compare by content',
    {
      tags: [
        { a: 1, b: [true] },
        { b: [true], a: 1 },
      ],
    },
    ['spec.tags[1]: Duplicate value: map[string]interface {}{"a":1, "b":[]interface {}{true}}'],
  ],
  [
    'a map list keyed by one field',
    { ports: [{ name: 'a' }, { name: 'a', proto: 'TCP' }] },
    ['spec.ports[1]: Duplicate value: map[string]interface {}{"name":"a"}'],
  ],
  [
    'items without their key share one identity',
    { ports: [{}, { proto: 'UDP' }] },
    ['spec.ports[1]: Duplicate value: map[string]interface {}{}'],
  ],
  [
    'several keys',
    {
      pairs: [
        { name: 'a', proto: 'TCP' },
        { name: 'a', proto: 'UDP' },
        { proto: 'TCP', name: 'a' },
      ],
    },
    ['spec.pairs[2]: Duplicate value: map[string]interface {}{"name":"a", "proto":"TCP"}'],
  ],
  [
    'a map list item must be an object',
    { ports: ['x', { name: 'a' }, { name: 'a' }] },
    ['spec.ports[0]: Invalid value: "x": must be an object for an array of list-type map'],
  ],
  [
    'map values are named by key, list items by index',
    { byKey: { k: [1, 1] }, nested: [{ tags: ['x', 'x'] }] },
    ['spec.byKey[k][1]: Duplicate value: 1', 'spec.nested[0].tags[1]: Duplicate value: "x"'],
  ],
];

describe('validateListTypes', () => {
  for (const [name, spec, expected] of cases) it(name, () => assert.deepEqual(check(spec), expected));

  it('on update, skips the new object when the old one already repeats', () => {
    const bad = { spec: { tags: ['a', 'a'] } };
    assert.deepEqual(validateListTypesUpdate(schema, bad, bad), []);
    assert.equal(validateListTypesUpdate(schema, bad, { spec: { tags: ['a'] } }).length, 1);
  });
});
