/** The array literal the database backend sends a column as: every value comes back as it went in. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ArrayLiteral } from './array-literal.js';

const literal = (write: (a: ArrayLiteral) => void) => {
  const a = new ArrayLiteral();
  write(a);
  return a.toString();
};

describe('ArrayLiteral', () => {
  const texts: [string, string | undefined, string][] = [
    ['plain', 'abc', '{"abc"}'],
    ['empty', '', '{""}'],
    ['missing', undefined, '{NULL}'],
    ['the word NULL is text', 'NULL', '{"NULL"}'],
    ['braces, commas, spaces', ' {a, b} ', '{" {a, b} "}'],
    ['quote and backslash escaped', 'a"b\\c', '{"a\\"b\\\\c"}'],
    ['control characters as they are', 'a\nb\tc', '{"a\nb\tc"}'],
    ['non-ASCII', 'grüße "x" ✓', '{"grüße \\"x\\" ✓"}'],
    ['NUL', 'a\0b', '{"a\uFFFDb"}'],
    ['long, escaped natively', `${'x'.repeat(300)}"\\`, `{"${'x'.repeat(300)}\\"\\\\"}`],
  ];
  for (const [name, value, expected] of texts)
    it(`text: ${name}`, () =>
      assert.equal(
        literal((a) => a.text(value)),
        expected,
      ));

  const jsons: [string, string, string][] = [
    ['object', '{"k":"v"}', '{"{\\"k\\":\\"v\\"}"}'],
    ['an escaped NUL becomes U+FFFD', '["a\\u0000b"]', '{"[\\"a\\\\ufffdb\\"]"}'],
    ['an escaped backslash before u0000 is text', '["\\\\u0000"]', '{"[\\"\\\\\\\\u0000\\"]"}'],
    ['three backslashes: an escaped one, then a NUL', '["\\\\\\u0000"]', '{"[\\"\\\\\\\\\\\\ufffd\\"]"}'],
  ];
  for (const [name, value, expected] of jsons)
    it(`json: ${name}`, () =>
      assert.equal(
        literal((a) => a.json(value)),
        expected,
      ));

  const ints: [number | undefined, string][] = [
    [0, '0'],
    [7, '7'],
    [10, '10'],
    [99_999_999, '99999999'],
    [100_000_000, '100000000'],
    [100_000_007, '100000007'],
    [1_732_791_401_000_456, '1732791401000456'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
    [undefined, 'NULL'],
  ];
  for (const [value, expected] of ints)
    it(`int: ${value}`, () =>
      assert.equal(
        literal((a) => a.int(value)),
        `{${expected}}`,
      ));

  it('a value again, as the last or after others, and after the buffer grew', () => {
    const a = new ArrayLiteral();
    const long = `"${'y'.repeat(3000)}"`;
    const values = ['a"b', 'a"b', 'c', 'a"b', 'ü', 'ü', long, long, 'a"b', undefined, 'a"b'];
    for (const v of values) a.json(v);
    const quoted = (v: string | undefined) => (v === undefined ? 'NULL' : `"${v.replace(/["\\]/g, '\\$&')}"`);
    assert.equal(a.toString(), `{${values.map(quoted).join(',')}}`);
    a.clear();
    a.text('a"b');
    assert.equal(a.toString(), '{"a\\"b"}');
  });

  it('values in order, a comma between; cleared, the buffer is reused; grows past its first size', () => {
    const a = new ArrayLiteral();
    a.text('x');
    a.int(3);
    a.text(undefined);
    assert.equal(a.toString(), '{"x",3,NULL}');
    assert.equal(a.toString(), '{"x",3,NULL}');
    a.clear();
    assert.equal(a.toString(), '{}');
    const many = Array.from({ length: 2000 }, (_, i) => `value-${i}`);
    for (const v of many) a.text(v);
    assert.equal(a.toString(), `{${many.map((v) => `"${v}"`).join(',')}}`);
  });
});
