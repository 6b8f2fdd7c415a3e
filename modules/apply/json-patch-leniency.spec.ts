/**
 * Patches kube accepts although RFC 6902 would refuse them or read them otherwise (evanphx/json-patch v4
 * behaviour, which is what a kube client observes).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch } from './json-patch.js';
import { PatchRejectedError } from './patch-errors.js';

const doc = () => ({ a: { b: 1 }, list: ['x', 'y', 'z'], n: null as null });

const cases: { name: string; ops: unknown[]; result: unknown }[] = [
  {
    name: 'replace of a missing object member adds it',
    ops: [{ op: 'replace', path: '/a/c', value: 2 }],
    result: { a: { b: 1, c: 2 }, list: ['x', 'y', 'z'], n: null },
  },
  {
    name: 'copy of a missing member writes null',
    ops: [{ op: 'copy', from: '/a/missing', path: '/copied' }],
    result: { a: { b: 1 }, list: ['x', 'y', 'z'], n: null, copied: null },
  },
  {
    name: 'add without a value writes null',
    ops: [{ op: 'add', path: '/a/b' }],
    result: { a: { b: null }, list: ['x', 'y', 'z'], n: null },
  },
  {
    name: 'a negative index counts from the end (remove)',
    ops: [{ op: 'remove', path: '/list/-1' }],
    result: { a: { b: 1 }, list: ['x', 'y'], n: null },
  },
  {
    name: 'a negative index counts from the end (add inserts before it)',
    ops: [{ op: 'add', path: '/list/-1', value: 'w' }],
    result: { a: { b: 1 }, list: ['x', 'y', 'z', 'w'], n: null },
  },
  {
    name: 'an index with a sign and leading zeros',
    ops: [{ op: 'replace', path: '/list/+01', value: 'Y' }],
    result: { a: { b: 1 }, list: ['x', 'Y', 'z'], n: null },
  },
  {
    name: 'text before the first slash is ignored',
    ops: [{ op: 'add', path: 'ignored/top', value: true }],
    result: { a: { b: 1 }, list: ['x', 'y', 'z'], n: null, top: true },
  },
  {
    name: 'replace of the root with an object swaps the document',
    ops: [{ op: 'replace', path: '', value: { fresh: 1 } }],
    result: { fresh: 1 },
  },
  {
    name: 'replace of the root with a scalar changes nothing',
    ops: [{ op: 'replace', path: '', value: 5 }],
    result: { a: { b: 1 }, list: ['x', 'y', 'z'], n: null },
  },
  {
    name: 'a test for null passes on a null member and on a missing one',
    ops: [
      { op: 'test', path: '/n', value: null },
      { op: 'test', path: '/a/missing', value: null },
    ],
    result: { a: { b: 1 }, list: ['x', 'y', 'z'], n: null },
  },
  {
    name: 'a test compares objects regardless of key order',
    ops: [{ op: 'test', path: '', value: { n: null, list: ['x', 'y', 'z'], a: { b: 1 } } }],
    result: { a: { b: 1 }, list: ['x', 'y', 'z'], n: null },
  },
  {
    name: 'the empty key and escaped keys',
    ops: [
      { op: 'add', path: '/', value: 'root-empty' },
      { op: 'add', path: '/a~1b', value: 'slash' },
      { op: 'add', path: '/m~0n', value: 'tilde' },
    ],
    result: { a: { b: 1 }, list: ['x', 'y', 'z'], n: null, '': 'root-empty', 'a/b': 'slash', 'm~n': 'tilde' },
  },
  {
    name: 'a member named __proto__ is an ordinary member',
    ops: [{ op: 'add', path: '/__proto__', value: { polluted: true } }],
    result: JSON.parse('{"a":{"b":1},"list":["x","y","z"],"n":null,"__proto__":{"polluted":true}}'),
  },
];

describe('JSON patch: kube leniencies', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(applyJsonPatch(doc(), c.ops), c.result);
    });
  }

  it('never reaches Object.prototype', () => {
    assert.throws(
      () => applyJsonPatch(doc(), [{ op: 'add', path: '/__proto__/polluted', value: true }]),
      PatchRejectedError,
    );
    const out = applyJsonPatch(doc(), [
      { op: 'add', path: '/__proto__', value: {} },
      { op: 'add', path: '/__proto__/polluted', value: true },
    ]);
    assert.deepEqual(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('a test for null fails on a member holding a value', () => {
    assert.throws(
      () => applyJsonPatch(doc(), [{ op: 'test', path: '/a/b', value: null }]),
      PatchRejectedError,
    );
  });

  it('values inserted from the patch are copies', () => {
    const value = { deep: { x: 1 } };
    const out = applyJsonPatch(doc(), [{ op: 'add', path: '/v', value }]) as { v: typeof value };
    out.v.deep.x = 2;
    assert.equal(value.deep.x, 1);
  });
});
