import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goRegExp } from './go-regexp.js';

const cases: [pattern: string, input: string, matches: boolean][] = [
  ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'my-name', true],
  ['^[a-z]+$', 'ABC', false],
  ['(?i)^abc$', 'ABC', true],
  ['^\\w+\\z', 'abc', true],
  ['^\\w+\\z', 'abc\n', false],
  ['\\Aabc', 'abc', true],
  ['^[[:alpha:]]+$', 'abc', true],
  ['^[[:digit:]]+$', 'a1', false],
  ['^\\pL+$', 'héllo', true],
  ['^\\p{Greek}+$', 'αβγ', true],
  ['^a\\-b\\_c\\"d$', 'a-b_c"d', true],
  ['^[\\.\\-_]+$', '.-_', true],
  ['^{foo}$', '{foo}', true],
  ['^a{2}$', 'aa', true],
  ['^[]a]+$', ']a', true],
  ['^\\s$', '\u000b', false],
  ['^\\s$', '\t', true],
  ['^(?P<year>\\d{4})$', '2024', true],
  ['^\\Qa.b\\E$', 'a.b', true],
  ['^\\Qa.b\\E$', 'axb', false],
  ['^.$', '😀', true],
  ['^\\x{1F600}$', '😀', true],
  // flags part-way last to the end of their group
  ['a(?i)b', 'aB', true],
  ['a(?i)b', 'AB', false],
  ['^((?i)jan|feb)(:x)?$', 'FEB', true],
  ['^((?i)jan|feb)(:x)?$', 'feb:X', false],
  ['^(?i)(abort|warn)?$', 'WARN', true],
  ['^(?i:[a-c]+)d$', 'aBCd', true],
  ['^(?i:[a-c]+)d$', 'abcD', false],
  ['^a(?s:.)b$', 'a\nb', true],
  ['^a.b$', 'a\nb', false],
  ['(?m:^b$)', 'a\nb', true],
];

describe('goRegExp', () => {
  for (const [pattern, input, matches] of cases) {
    it(`${pattern} ~ ${JSON.stringify(input)}`, () => assert.equal(goRegExp(pattern)!.test(input), matches));
  }

  it('gives up on what it cannot translate, rather than refuse values', () => {
    assert.equal(goRegExp('a(?U)b*'), undefined);
    assert.equal(goRegExp('[[:^alpha:]]'), undefined);
  });
});
