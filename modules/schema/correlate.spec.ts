import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Schema } from '../api/index.js';
import { compositeKey, correlate } from './correlate.js';

const schema: Schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
    },
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

describe('correlate', () => {
  it('pairs properties and map values present on both sides', () => {
    const c = correlate(
      { name: 'a', labels: { x: '1' } },
      { name: 'b', labels: { x: '2' }, extra: 1 },
      schema,
    );
    assert.equal(c.key('name')?.oldValue, 'b');
    assert.equal(c.key('labels')?.key('x')?.oldValue, '2');
    assert.equal(c.key('labels')?.key('y'), undefined);
    assert.equal(c.key('missing'), undefined);
    assert.equal(c.key('free'), undefined);
  });

  it('pairs map-list items by key, not by index; other lists not at all', () => {
    const c = correlate(
      { ports: [{ name: 'b', port: 2 }, { name: 'c' }], tags: ['x'] },
      { ports: [{ name: 'a' }, { name: 'b', port: 1 }], tags: ['x'] },
      schema,
    );
    assert.deepEqual(c.key('ports')?.index(0)?.oldValue, { name: 'b', port: 1 });
    assert.equal(c.key('ports')?.index(1), undefined);
    assert.equal(c.key('tags')?.index(0), undefined);
  });

  it('unchanged: through the correlation', () => {
    const same = (a: unknown, b: unknown): boolean => correlate(a, b, schema).unchanged();
    assert.equal(same({ name: 'a' }, { name: 'a' }), true);
    assert.equal(same({ name: 'a' }, { name: 'a', labels: {} }), false);
    assert.equal(
      same({ ports: [{ name: 'a' }, { name: 'b' }] }, { ports: [{ name: 'b' }, { name: 'a' }] }),
      true,
    );
    assert.equal(same({ tags: ['a', 'b'] }, { tags: ['b', 'a'] }), false);
    assert.equal(same({ tags: ['a', 'b'] }, { tags: ['a', 'b'] }), true);
    // fields no schema describes are never "the same"
    assert.equal(same({ free: { x: 1 } }, { free: { x: 1 } }), false);
    assert.equal(same({ free: {} }, { free: {} }), true);
    assert.equal(same(null, null), true);
  });

  it('composite keys tell types apart', () => {
    assert.notEqual(compositeKey({ a: 1, b: 'x' }, ['a', 'b']), compositeKey({ a: '1', b: 'x' }, ['a', 'b']));
    assert.equal(compositeKey({ a: { x: 1 } }, ['a']), undefined);
    assert.equal(compositeKey({ a: 'x' }, ['a']), 'x');
  });
});
