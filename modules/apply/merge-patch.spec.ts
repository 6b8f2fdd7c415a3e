/** JSON merge patch: RFC 7386 appendix A, kube's errors, and the library's null pruning. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import { applyMergePatch, mergePatch } from './merge-patch.js';

const appendixA: [string, string, string][] = [
  ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
  ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
  ['{"a":"b"}', '{"a":null}', '{}'],
  ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
  ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
  ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
  ['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
  ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
  ['["a","b"]', '["c","d"]', '["c","d"]'],
  ['{"a":"b"}', '["c"]', '["c"]'],
  ['{"a":"foo"}', 'null', 'null'],
  ['{"a":"foo"}', '"bar"', '"bar"'],
  ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
  ['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
  ['{}', '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}'],
];

describe('merge patch: RFC 7386 appendix A', () => {
  for (const [target, patch, result] of appendixA) {
    it(`${target} + ${patch}`, () => {
      const t = JSON.parse(target);
      const p = JSON.parse(patch);
      assert.deepEqual(mergePatch(t, p), JSON.parse(result));
      assert.deepEqual(t, JSON.parse(target), 'target untouched');
      assert.deepEqual(p, JSON.parse(patch), 'patch untouched');
    });
  }
});

describe('merge patch: nulls in newly set values (kube library behaviour)', () => {
  const cases: [string, unknown, unknown, unknown][] = [
    ['dropped inside a new object', { a: 1 }, { b: { c: null, d: 1 } }, { a: 1, b: { d: 1 } }],
    ['dropped inside objects in a new list', {}, { l: [{ x: null, y: 1 }, null] }, { l: [{ y: 1 }, null] }],
    ['dropped when a scalar becomes an object', { a: 's' }, { a: { b: null, c: 2 } }, { a: { c: 2 } }],
    ['kept when a list replaces an object', { a: { k: 1 } }, { a: [{ x: null }] }, { a: [{ x: null }] }],
    ['dropped when a list replaces a list', { a: [1] }, { a: [{ x: null }] }, { a: [{}] }],
    ['a member holding null counts as missing', { a: null }, { a: { b: null, c: 1 } }, { a: { c: 1 } }],
  ];
  for (const [name, target, patch, result] of cases) {
    it(name, () => assert.deepEqual(mergePatch(target, patch), result));
  }
});

describe('merge patch: kube request errors', () => {
  const doc = { kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } };
  for (const body of [null, 'text', 3, false]) {
    it(`${JSON.stringify(body)} is 400 Invalid JSON Patch`, () => {
      assert.throws(
        () => applyMergePatch(doc, body),
        (err: unknown) =>
          err instanceof ApiError &&
          err.code === 400 &&
          err.reason === 'BadRequest' &&
          err.message === 'Invalid JSON Patch',
      );
    });
  }

  it('a list replaces the whole object (the decode that follows rejects it)', () => {
    assert.deepEqual(applyMergePatch(doc, [{ a: null }]), [{}]);
  });

  it('an object merges', () => {
    assert.deepEqual(applyMergePatch(doc, { data: { a: null, b: '2' }, metadata: { labels: { x: 'y' } } }), {
      kind: 'ConfigMap',
      metadata: { name: 'x', labels: { x: 'y' } },
      data: { b: '2' },
    });
  });
});
