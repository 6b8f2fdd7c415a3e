/** JSON Pointer tokens and indexes, read as kube's JSON patch library reads them. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeToken, existingIndex, findTarget, insertIndex, parseIndex } from './json-pointer.js';

describe('JSON pointer: token escapes (RFC 6901)', () => {
  const cases: [string, string][] = [
    ['plain', 'plain'],
    ['a~1b', 'a/b'],
    ['m~0n', 'm~n'],
    ['~01', '~1'],
    ['~10', '/0'],
    ['~2', '~2'],
    ['', ''],
  ];
  for (const [token, decoded] of cases) {
    it(`${JSON.stringify(token)} -> ${JSON.stringify(decoded)}`, () =>
      assert.equal(decodeToken(token), decoded));
  }
});

describe('JSON pointer: array indexes', () => {
  const list = ['a', 'b', 'c'];
  const cases: { key: string; existing: number | string; insert: number | string }[] = [
    { key: '0', existing: 0, insert: 0 },
    { key: '2', existing: 2, insert: 2 },
    { key: '3', existing: 'Unable to access invalid index: 3: invalid index referenced', insert: 3 },
    {
      key: '4',
      existing: 'Unable to access invalid index: 4: invalid index referenced',
      insert: 'Unable to access invalid index: 4: invalid index referenced',
    },
    { key: '-1', existing: 2, insert: 3 },
    { key: '-3', existing: 0, insert: 1 },
    {
      key: '-4',
      existing: 'Unable to access invalid index: -4: invalid index referenced',
      insert: 0,
    },
    {
      key: '007',
      existing: 'Unable to access invalid index: 7: invalid index referenced',
      insert: 'Unable to access invalid index: 7: invalid index referenced',
    },
    {
      key: '-',
      existing: 'strconv.Atoi: parsing "-": invalid syntax',
      insert: 3,
    },
    {
      key: '1.5',
      existing: 'strconv.Atoi: parsing "1.5": invalid syntax',
      insert: `value was not a proper array index: '1.5': strconv.Atoi: parsing "1.5": invalid syntax`,
    },
  ];
  for (const c of cases) {
    it(`existing ${c.key}`, () => assert.equal(existingIndex(list, c.key), c.existing));
    it(`insert ${c.key}`, () => assert.equal(insertIndex(list, c.key), c.insert));
  }

  it('rejects numbers beyond int64', () => {
    assert.equal(
      parseIndex('99999999999999999999'),
      'strconv.Atoi: parsing "99999999999999999999": value out of range',
    );
  });
});

describe('JSON pointer: finding the parent container', () => {
  const doc = { a: { b: [{ c: 1 }] }, s: 'text', n: null };
  const cases: { path: string; found?: { key: string; container: unknown } }[] = [
    { path: '/a', found: { key: 'a', container: doc } },
    { path: '/a/b/0/c', found: { key: 'c', container: doc.a.b[0] } },
    { path: '/a/b/-1/c', found: { key: 'c', container: doc.a.b[0] } },
    { path: '/a/b/1/c' },
    { path: '/s/x' },
    { path: '/n/x' },
    { path: '/missing/x' },
    { path: '' },
    { path: 'a' },
    { path: 'x/a', found: { key: 'a', container: doc } },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.path), () => {
      const t = findTarget(doc, c.path);
      if (!c.found) return assert.equal(t, undefined);
      assert.ok(t);
      assert.equal(t.key, c.found.key);
      assert.equal(t.container, c.found.container);
    });
  }
});
