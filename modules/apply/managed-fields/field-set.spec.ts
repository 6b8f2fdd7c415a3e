import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldSet, FieldsV1Error } from './field-set.js';
import { field, key, makePath, pathText, value } from './path-element.js';

const P = makePath;
const text = (s: FieldSet): string[] => s.paths().map(pathText);

describe('FieldSet: FieldsV1 encoding', () => {
  const cases: Array<{ name: string; set: FieldSet; json: string }> = [
    { name: 'empty set', set: FieldSet.empty(), json: '{}' },
    {
      name: 'leaves and nesting',
      set: FieldSet.of(P('data', 'b'), P('data', 'a'), P('metadata', 'labels', 'app')),
      json: '{"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{"f:app":{}}}}',
    },
    {
      name: 'a node that is also a member gets "." first',
      set: FieldSet.of(P('metadata', 'labels'), P('metadata', 'labels', 'app')),
      json: '{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}',
    },
    {
      name: 'keyed items sort after fields, their fields sorted inside the key',
      set: FieldSet.of(
        P('spec', 'ports'),
        P('spec', 'ports', key({ protocol: 'TCP', port: 80 })),
        P('spec', 'ports', key({ protocol: 'TCP', port: 80 }), 'port'),
        P('spec', 'ports', key({ protocol: 'TCP', port: 80 }), 'protocol'),
        P('spec', 'type'),
      ),
      json:
        '{"f:spec":{"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{}}},' +
        '"f:type":{}}}',
    },
    {
      name: 'set members by value, numbers before strings',
      set: FieldSet.of(
        P('metadata', 'finalizers', value('b')),
        P('metadata', 'finalizers', value('a')),
        P('x', value(2)),
      ),
      json: '{"f:metadata":{"f:finalizers":{"v:\\"a\\"":{},"v:\\"b\\"":{}}},"f:x":{"v:2":{}}}',
    },
    {
      name: 'indexes last',
      set: FieldSet.of(P('l', 1), P('l', 0), P('l', 'f')),
      json: '{"f:l":{"f:f":{},"i:0":{},"i:1":{}}}',
    },
    {
      name: 'HTML characters in keys escaped as Go escapes them',
      set: FieldSet.of(P('metadata', 'annotations', 'a&b<c>')),
      json: '{"f:metadata":{"f:annotations":{"f:a\\u0026b\\u003cc\\u003e":{}}}}',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(c.set.toFieldsV1Json(), c.json);
      // the object form has the same keys in the same order
      assert.equal(JSON.stringify(c.set.toFieldsV1()), JSON.stringify(JSON.parse(c.json)));
      assert.ok(FieldSet.fromFieldsV1(JSON.parse(c.json)).equals(c.set));
    });
  }

  it('reads "." as membership and {} as a leaf', () => {
    const set = FieldSet.fromFieldsV1({ 'f:a': { '.': {}, 'f:b': {} }, 'f:c': {} });
    assert.deepEqual(text(set), ['.a', '.c', '.a.b']);
  });

  it('drops unknown element types and whatever is below them', () => {
    const set = FieldSet.fromFieldsV1({ 'f:a': {}, 'r:x': { 'f:y': {} } });
    assert.deepEqual(text(set), ['.a']);
  });

  it('reads null or absent as the empty set', () => {
    assert.ok(FieldSet.fromFieldsV1(null).isEmpty());
    assert.ok(FieldSet.fromFieldsV1(undefined).isEmpty());
  });

  const bad: Array<[string, unknown, string]> = [
    ['not an object', [1], 'FieldsV1 must be a JSON object'],
    ['a value that is not an object', { 'f:a': 1 }, 'the value of "f:a" must be a JSON object'],
    ['a malformed key', { 'f:a': { x: {} } }, 'parsing key as path element: key must be 2 characters long:'],
    ['a bad index', { 'i:a': {} }, 'parsing key as path element: strconv.Atoi: parsing "a": invalid syntax'],
  ];
  for (const [name, json, message] of bad) {
    it(`rejects ${name}`, () => {
      assert.throws(
        () => FieldSet.fromFieldsV1(json),
        (err: unknown) => err instanceof FieldsV1Error && err.message === message,
      );
    });
  }
});

describe('FieldSet: algebra', () => {
  const a = FieldSet.of(P('x'), P('m'), P('m', 'a'), P('m', 'b'), P('s', 'c'));
  const b = FieldSet.of(P('m'), P('m', 'b'), P('s', 'c'), P('y'));

  const cases: Array<[string, FieldSet, string[]]> = [
    ['union', a.union(b), ['.m', '.x', '.y', '.m.a', '.m.b', '.s.c']],
    ['intersection', a.intersection(b), ['.m', '.m.b', '.s.c']],
    [
      'difference keeps paths below a removed member',
      a.difference(FieldSet.of(P('m'))),
      ['.x', '.m.a', '.m.b', '.s.c'],
    ],
    ['difference', a.difference(b), ['.x', '.m.a']],
    [
      'recursive difference removes below a member too',
      a.recursiveDifference(FieldSet.of(P('m'))),
      ['.x', '.s.c'],
    ],
    [
      'recursive difference by a deeper path',
      a.recursiveDifference(FieldSet.of(P('m', 'a'))),
      ['.m', '.x', '.m.b', '.s.c'],
    ],
  ];
  for (const [name, result, paths] of cases) {
    it(name, () => assert.deepEqual(text(result), paths));
  }

  it('never changes its inputs', () => {
    a.union(b).difference(a);
    assert.deepEqual(text(a), ['.m', '.x', '.m.a', '.m.b', '.s.c']);
  });

  it('answers membership of paths, not of their prefixes', () => {
    assert.ok(a.has(P('m', 'a')));
    assert.ok(a.has(P('m')));
    assert.ok(!a.has(P('s')));
    assert.ok(!a.has([]));
  });

  it('has no empty nodes after a difference', () => {
    const d = FieldSet.of(P('s', 'c')).difference(FieldSet.of(P('s', 'c')));
    assert.ok(d.isEmpty());
    assert.equal(d.toFieldsV1Json(), '{}');
  });

  it('gives the paths below an element', () => {
    assert.deepEqual(text(a.withPrefix(field('m'))), ['.a', '.b']);
    assert.ok(a.withPrefix(field('nothing')).isEmpty());
  });

  it('lists paths as kube iterates them: members of a node before its children', () => {
    const s = FieldSet.of(P('b', 'c'), P('a'), P('b'), P('c', 'd', 'e'), P('c', 'a'));
    assert.deepEqual(text(s), ['.a', '.b', '.b.c', '.c.a', '.c.d.e']);
  });
});
