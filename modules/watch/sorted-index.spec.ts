import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/index.js';
import { SortedIndex } from './sorted-index.js';

const obj = (name: string) => ({ metadata: { name } }) as KubeObject;

/** every position, range and lookup agrees with a plain sorted array */
function assertSame(index: SortedIndex, keys: string[]): void {
  assert.equal(index.size, keys.length);
  keys.forEach((k, i) => {
    assert.equal(index.keyAt(i), k);
    assert.equal(index.at(i).metadata.name, k);
  });
  for (const ns of ['a', 'b', 'c', undefined]) {
    const expected = ns === undefined ? keys : keys.filter((k) => k.startsWith(`${ns}\u0000`));
    const [start, end] = index.range(ns);
    assert.deepEqual(
      Array.from({ length: end - start }, (_, i) => index.keyAt(start + i)),
      expected,
    );
    if (expected.length > 2) {
      const after = expected[1];
      const [s2, e2] = index.range(ns, after);
      assert.deepEqual(
        Array.from({ length: e2 - s2 }, (_, i) => index.keyAt(s2 + i)),
        expected.slice(2),
      );
    }
  }
}

describe('SortedIndex', () => {
  it('keeps key order through random inserts and deletes across many chunks', () => {
    const index = new SortedIndex();
    const keys = new Set<string>();
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let step = 0; step < 6000; step++) {
      const key = `${'abc'[Math.floor(random() * 3)]}\u0000n${Math.floor(random() * 3000)}`;
      if (random() < 0.7) {
        index.set(key, obj(key));
        keys.add(key);
      } else {
        index.delete(key);
        keys.delete(key);
      }
      if (step % 1500 === 0) assertSame(index, [...keys].sort());
    }
    assertSame(index, [...keys].sort());
    for (const k of [...keys]) index.delete(k);
    assertSame(index, []);
    index.set('b\u0000x', obj('b\u0000x'));
    assertSame(index, ['b\u0000x']);
  });

  it('bulk-loads unsorted entries', () => {
    const index = new SortedIndex();
    const keys = Array.from({ length: 2000 }, (_, i) => `b\u0000${(i * 7919) % 2000}`);
    index.load(keys.map((k) => [k, obj(k)]));
    assertSame(index, [...keys].sort());
    index.set('a\u0000first', obj('a\u0000first'));
    assertSame(index, ['a\u0000first', ...[...keys].sort()]);
  });

  it('replacing an object keeps one key', () => {
    const index = new SortedIndex();
    index.set('a\u0000x', obj('one'));
    index.set('a\u0000x', obj('two'));
    assert.equal(index.size, 1);
    assert.equal(index.get('a\u0000x')?.metadata.name, 'two');
  });
});
