import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { base64Canonical, base64Valid, checkBase64, parseGoTime, quantityError } from './formats.js';

describe('checkBase64 (Go StdEncoding)', () => {
  const cases: [string, number][] = [
    ['', base64Canonical],
    ['YQ==', base64Canonical],
    ['YWI=', base64Canonical],
    ['YWJjZA==', base64Canonical],
    ['YQ==\n', base64Valid],
    ['YQ=\n=', base64Valid],
    ['YR==', base64Valid],
    ['YWJ=', base64Valid],
    ['YQ', 0],
    ['YWJjZ', 4],
    ['YQ=', 3],
    ['Y===', 1],
    ['====', 0],
    ['YQ=x', 2],
    ['YWJjZ===', 5],
    ['a@bc', 1],
    ['YQ==YQ==', 4],
    ['YQ==\nx', 5],
    ['é', 0],
    ['YQ==é', 4],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => assert.equal(checkBase64(input), expected));
  }
});

describe('parseGoTime', () => {
  const layout = '"2006-01-02T15:04:05Z07:00"';
  const microLayout = '"2006-01-02T15:04:05.000000Z07:00"';
  const ok: [string, boolean, string][] = [
    ['2024-01-02T03:04:05Z', false, '2024-01-02T03:04:05Z'],
    ['2024-02-29T00:00:00Z', false, '2024-02-29T00:00:00Z'],
    ['2000-02-29T00:00:00Z', false, '2000-02-29T00:00:00Z'],
    ['2024-01-01T1:00:00Z', false, '2024-01-01T01:00:00Z'],
    ['2024-01-01T00:00:00,5Z', false, '2024-01-01T00:00:00Z'],
    ['2024-01-01T00:00:00.123456789-00:30', false, '2024-01-01T00:30:00Z'],
    ['2024-01-02T03:04:05.000001Z', true, '2024-01-02T03:04:05.000001Z'],
    ['2024-01-02T03:04:05,000001Z', true, '2024-01-02T03:04:05.000001Z'],
  ];
  for (const [input, micro, canonical] of ok) {
    it(`${input} → ${canonical}`, () => assert.deepEqual(parseGoTime(input, micro), { ok: true, canonical }));
  }
  const bad: [string, boolean, string][] = [
    ['', false, `parsing time "" as ${layout}: cannot parse "" as "2006"`],
    ['x', false, `parsing time "x" as ${layout}: cannot parse "x" as "2006"`],
    [
      '20x4-01-01T00:00:00Z',
      false,
      `parsing time "20x4-01-01T00:00:00Z" as ${layout}: cannot parse "20x4-01-01T00:00:00Z" as "2006"`,
    ],
    [
      '2024/01/01T00:00:00Z',
      false,
      `parsing time "2024/01/01T00:00:00Z" as ${layout}: cannot parse "/01/01T00:00:00Z" as "-"`,
    ],
    [
      '2024-1-01T00:00:00Z',
      false,
      `parsing time "2024-1-01T00:00:00Z" as ${layout}: cannot parse "1-01T00:00:00Z" as "01"`,
    ],
    [
      '2024-01-01t00:00:00Z',
      false,
      `parsing time "2024-01-01t00:00:00Z" as ${layout}: cannot parse "t00:00:00Z" as "T"`,
    ],
    [
      '2024-01-01T2a:00:00Z',
      false,
      `parsing time "2024-01-01T2a:00:00Z" as ${layout}: cannot parse "a:00:00Z" as ":"`,
    ],
    [
      '2024-01-01T00:00:00',
      false,
      `parsing time "2024-01-01T00:00:00" as ${layout}: cannot parse "" as "Z07:00"`,
    ],
    [
      '2024-01-01T00:00:00z',
      false,
      `parsing time "2024-01-01T00:00:00z" as ${layout}: cannot parse "z" as "Z07:00"`,
    ],
    [
      '2024-01-01T00:00:00+0100',
      false,
      `parsing time "2024-01-01T00:00:00+0100" as ${layout}: cannot parse "+0100" as "Z07:00"`,
    ],
    [
      '2024-01-01T00:00:00*01:00',
      false,
      `parsing time "2024-01-01T00:00:00*01:00" as ${layout}: cannot parse "*01:00" as "Z07:00"`,
    ],
    ['2024-13-01T00:00:00Z', false, 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2024-00-01T00:00:00Z', false, 'parsing time "2024-00-01T00:00:00Z": month out of range'],
    ['2023-02-29T00:00:00Z', false, 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-04-31T00:00:00Z', false, 'parsing time "2024-04-31T00:00:00Z": day out of range'],
    ['2024-01-00T00:00:00Z', false, 'parsing time "2024-01-00T00:00:00Z": day out of range'],
    ['2024-01-01T24:00:00Z', false, 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    ['2024-01-01T00:60:00Z', false, 'parsing time "2024-01-01T00:60:00Z": minute out of range'],
    ['2024-01-01T00:00:60Z', false, 'parsing time "2024-01-01T00:00:60Z": second out of range'],
    [
      '2024-01-01T00:00:00+25:00',
      false,
      'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range',
    ],
    [
      '2024-01-01T00:00:00+01:61',
      false,
      'parsing time "2024-01-01T00:00:00+01:61": time zone offset minute out of range',
    ],
    ['2024-01-01T00:00:00Zjunk', false, 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
    ['é', false, `parsing time "\\xc3\\xa9" as ${layout}: cannot parse "\\xc3\\xa9" as "2006"`],
    [
      '2024-01-01T00:00:00Z',
      true,
      `parsing time "2024-01-01T00:00:00Z" as ${microLayout}: cannot parse "Z" as ".000000"`,
    ],
    [
      '2024-01-01T00:00:00.12345Z',
      true,
      `parsing time "2024-01-01T00:00:00.12345Z" as ${microLayout}: cannot parse ".12345Z" as ".000000"`,
    ],
    [
      '2024-01-01T00:00:00.1234567Z',
      true,
      `parsing time "2024-01-01T00:00:00.1234567Z" as ${microLayout}: cannot parse "7Z" as "Z07:00"`,
    ],
  ];
  for (const [input, micro, error] of bad) {
    it(`rejects ${JSON.stringify(input)}${micro ? ' (micro)' : ''}`, () =>
      assert.deepEqual(parseGoTime(input, micro), { ok: false, error }));
  }
});

describe('quantityError', () => {
  const format =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const cases: [string, string | undefined][] = [
    ['1', undefined],
    ['0', undefined],
    ['-0', undefined],
    ['000', undefined],
    ['+', undefined],
    ['100m', undefined],
    ['1.5Gi', undefined],
    ['1e3', undefined],
    ['1E3', undefined],
    ['1e-3', undefined],
    ['1e+3', undefined],
    ['.5', undefined],
    ['5.', undefined],
    ['1Ki', undefined],
    ['1E', undefined],
    ['  1  ', undefined],
    ['', format],
    ['abc', format],
    ['1 Gi', format],
    ['1Gx', format],
    ['1e3x', format],
    ['1Gii', "unable to parse quantity's suffix"],
    ['1e', "unable to parse quantity's suffix"],
    ['1ee3', "unable to parse quantity's suffix"],
    ['.', 'unable to parse numeric part of quantity'],
    ['m', 'unable to parse numeric part of quantity'],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => assert.equal(quantityError(input), expected));
  }
});
