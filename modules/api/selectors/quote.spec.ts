import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goQuote } from './quote.js';
import { isQualifiedName, isValidLabelValue } from './validation.js';

describe('goQuote (strconv.Quote)', () => {
  const cases: [string, string][] = [
    ['', '""'],
    ['plain text', '"plain text"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\n\t\r\x07\x08\x0c\x0b', '"\\n\\t\\r\\a\\b\\f\\v"'],
    ['\x01\x7f', '"\\x01\\x7f"'],
    ['é😀', '"é😀"'],
    ['\u00a0', '"\\u00a0"'],
    ['\u200b', '"\\u200b"'],
    ['\ue000', '"\\ue000"'],
    ['\u{e0001}', '"\\U000e0001"'],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => assert.equal(goQuote(input), expected));
  }
});

describe('label key and value rules', () => {
  it('accepts what kube accepts', () => {
    for (const k of ['a', 'A-b_c.d', 'example.com/x', 'a.b-c/X_1', `${'a'.repeat(253)}/${'b'.repeat(63)}`])
      assert.deepEqual(isQualifiedName(k), [], k);
    for (const v of ['', 'a', 'A-b_c.d', 'x'.repeat(63)]) assert.deepEqual(isValidLabelValue(v), [], v);
  });

  it('measures length in UTF-8 bytes like Go', () => {
    assert.equal(isValidLabelValue('é'.repeat(32)).length, 2);
    assert.match(isValidLabelValue('é'.repeat(32))[0], /^must be no more than 63 characters$/);
  });

  it('reports every problem of a key', () => {
    assert.deepEqual(
      isQualifiedName(`${'a'.repeat(254)}/`).map((m) => m.slice(0, 40)),
      [
        'prefix part must be no more than 253 cha',
        'name part must be non-empty',
        'name part must consist of alphanumeric c',
      ],
    );
    assert.deepEqual(
      isQualifiedName(`-${'a'.repeat(63)}`).map((m) => m.slice(0, 30)),
      ['name part must be no more than', 'name part must consist of alph'],
    );
    assert.equal(isQualifiedName('a..b/c').length, 1);
    assert.equal(isQualifiedName('a-.b/c').length, 1);
  });
});
