import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findDuplicateFields, findYamlDuplicateKeys, yamlDuplicateMessage } from './duplicates.js';

describe('findDuplicateFields', () => {
  const cases: [string, string, string[]][] = [
    ['none', '{"a":1,"b":{"a":2}}', []],
    ['empty object', '{}', []],
    ['top level', '{"a":1,"a":2}', ['a']],
    ['reported once however often repeated', '{"a":1,"a":2,"a":3}', ['a']],
    [
      'nested and in order',
      '{"metadata":{"name":"x","labels":{"app":"a","app":"b"},"name":"y"}}',
      ['metadata.labels.app', 'metadata.name'],
    ],
    [
      'list items',
      '{"spec":{"containers":[{"name":"a"},{"name":"b","name":"c"}]}}',
      ['spec.containers[1].name'],
    ],
    ['siblings do not clash', '[{"a":1},{"a":1}]', []],
    ['nested lists', '{"a":[[1],[{"x":1,"x":2}]]}', ['a[1][0].x']],
    ['escaped keys compare unescaped', '{"a":1,"\\u0061":2}', ['a']],
    ['quotes inside keys', '{"a\\"b":1,"a\\"b":2}', ['a"b']],
    ['backslash at the end of a value', '{"v":"x\\\\","v":"y"}', ['v']],
    ['structure characters inside strings', '{"a":"x,{\\"[","b":[1,2,{"c":"}]"}],"d":1,"d":2}', ['d']],
    ['pretty printed', '{\n  "a": {\n    "b": 1,\n    "b": 2\n  },\n  "a": 3\n}', ['a.b', 'a']],
    ['keys after a closed object', '{"a":{"x":1},"b":{"x":1},"a":2}', ['a']],
    ['same path in two list items', '{"l":[{"k":1,"k":2},{"k":1,"k":2}]}', ['l[0].k', 'l[1].k']],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => {
      JSON.parse(text); // the scanner only ever sees valid JSON
      assert.deepEqual(findDuplicateFields(text), expected);
    });
  }

  it('large objects switch to a set and still find repeats', () => {
    const entries = Array.from({ length: 200 }, (_, i) => `"k${i}":${i}`);
    entries.push('"k7":0', '"k150":0');
    assert.deepEqual(findDuplicateFields(`{"data":{${entries.join(',')}}}`), ['data.k7', 'data.k150']);
  });

  it('terminates on malformed text instead of hanging', () => {
    assert.deepEqual(findDuplicateFields('{"a'), []);
    assert.deepEqual(findDuplicateFields('}],{"a":1,"a":2'), ['a']);
  });

  it('stops at 100 reports', () => {
    const entries: string[] = [];
    for (let i = 0; i < 150; i++) entries.push(`"k${i}":1`, `"k${i}":2`);
    assert.equal(findDuplicateFields(`{${entries.join(',')}}`).length, 100);
  });
});

describe('findYamlDuplicateKeys', () => {
  it('finds repeated keys with go-yaml line numbers and key rendering', () => {
    const text =
      'a: 1\nb:\n  c: 2\n  c: 3\n"a": 4\nlist:\n- x: 1\n  x: 2\n1: one\n1: uno\nblock:\n  y: 1\nblock:\n  y: 2\n';
    const dups = findYamlDuplicateKeys(text);
    assert.deepEqual(dups, [
      { line: 4, key: '"c"' },
      { line: 5, key: '"a"' },
      { line: 8, key: '"x"' },
      { line: 10, key: '1' },
      { line: 14, key: '"block"' },
    ]);
    assert.equal(
      yamlDuplicateMessage(dups.slice(0, 2)),
      'yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "a" already set in map',
    );
  });

  it('finds nothing in a clean document', () => {
    assert.deepEqual(findYamlDuplicateKeys('a: 1\nb:\n  a: 2\nc: [ {a: 1}, {a: 1} ]\n'), []);
  });
});
