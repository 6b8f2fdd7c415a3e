import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goUnmarshalObjectError } from './go-json.js';

const mapType = 'Go value of type map[string]interface {}';

describe('goUnmarshalObjectError', () => {
  const cases: [string, string | undefined][] = [
    ['{}', undefined],
    [
      ' {"auths": {"r.io": {"auth": "eDp5"}}, "n": [1, -2.5e+3, true, false, null, "\\u00e9\\n"]} ',
      undefined,
    ],
    ['null', undefined],
    ['', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a":1', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['[1 2]', "invalid character '2' after array element"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['tru', 'unexpected end of JSON input'],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['nul1', "invalid character '1' in literal null (expecting 'l')"],
    ['"a\tb"', "invalid character '\\t' in string literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['[]', `json: cannot unmarshal array into ${mapType}`],
    ['"s"', `json: cannot unmarshal string into ${mapType}`],
    ['12', `json: cannot unmarshal number into ${mapType}`],
    ['true', `json: cannot unmarshal bool into ${mapType}`],
  ];
  for (const [input, want] of cases) {
    it(JSON.stringify(input), () => assert.equal(goUnmarshalObjectError(Buffer.from(input)), want));
  }

  it('reports a control byte the way strconv.Quote spells it', () => {
    assert.equal(
      goUnmarshalObjectError(Buffer.from([0x01])),
      "invalid character '\\x01' looking for beginning of value",
    );
  });

  it('handles deep nesting without recursion, up to Go’s limit', () => {
    const ok = '['.repeat(10000) + ']'.repeat(10000);
    assert.equal(goUnmarshalObjectError(Buffer.from(ok)), `json: cannot unmarshal array into ${mapType}`);
    const tooDeep = '['.repeat(10001) + ']'.repeat(10001);
    assert.equal(goUnmarshalObjectError(Buffer.from(tooDeep)), "invalid character '[' exceeded max depth");
    assert.equal(
      goUnmarshalObjectError(Buffer.from('{"a":'.repeat(200000))),
      "invalid character '{' exceeded max depth",
    );
  });
});
