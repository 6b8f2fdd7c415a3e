// Rules kube v1.32 evaluates to true or refuses with a given error (facts from apiextensions-apiserver's validation
// tests): field selection, has() and optionals on a custom resource's values.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema } from '../../api/index.js';
import { compileSchemaRules, compileValidator } from './index.js';

const string: Schema = { type: 'string' };
const integer: Schema = { type: 'integer' };
const object = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties });

/** The errors of `rule` on `spec`: its compile errors (cost aside), else its evaluation's. */
function run(schema: Schema, rule: string, spec: unknown): string[] {
  const root = object({ spec: { ...schema, 'x-kubernetes-validations': [{ rule }] } });
  const compiled = compileSchemaRules(root, 'root')
    .filter((e) => e.type !== 'Forbidden')
    .map(formatFieldError);
  if (compiled.length > 0) return compiled;
  return compileValidator(root)!.validate({ spec }).map(formatFieldError);
}

const access = object({
  a: object({ b: integer, c: integer, d: { ...integer, nullable: true } }),
  a1: object({ b1: object({ c1: integer }), d2: object({ e2: integer }) }),
});
const accessValue = { a: { b: 1, d: null }, a1: { b1: { c1: 4 } }, a3: {} };

const optionals = object({
  presentObj: object({ presentStr: string }),
  absentObj: object({ absentStr: string }),
  m: { type: 'object', additionalProperties: string },
  l: { type: 'array', items: string },
});
const optionalsValue = { presentObj: { presentStr: 'value' }, m: { k: 'v' }, l: ['a'] };

describe('field selection and has()', () => {
  for (const rule of [
    'has(self.a.b)',
    '!has(self.a.c)',
    '!has(self.a.d)',
    'has(self.a1.b1.c1)',
    '!(has(self.a1.d2) && has(self.a1.d2.e2))',
    '!has(self.a1.d2)',
  ]) {
    it(rule, () => assert.deepEqual(run(access, rule, accessValue), []));
  }
  const errors: [string, RegExp][] = [
    ['has(self.a.z)', /undefined field 'z'/],
    ["self.a['b'] == 1", /found no matching overload for '_\[_\]'/],
    ['has(self.a1.d2.e2)', /no such key: d2/],
    ["self.a.all(k, k != '')", /cannot be range of a comprehension/],
  ];
  for (const [rule, error] of errors) {
    it(`${rule} fails: ${error.source}`, () => {
      const [e, ...rest] = run(access, rule, accessValue);
      assert.match(e, error);
      assert.deepEqual(rest, []);
    });
  }
});

describe('optionals', () => {
  for (const rule of [
    "self.?presentObj.?presentStr == optional.of('value')",
    "self.presentObj.?presentStr == optional.of('value')",
    "self.presentObj.?presentStr.or(optional.of('nope')) == optional.of('value')",
    "self.presentObj.?presentStr.orValue('') == 'value'",
    'self.presentObj.?presentStr.hasValue() == true',
    "self.presentObj.?presentStr.optMap(v, v == 'value').hasValue()",
    'self.?absentObj.?absentStr == optional.none()',
    "self.?absentObj.?absentStr.or(optional.of('nope')) == optional.of('nope')",
    "self.?absentObj.?absentStr.orValue('nope') == 'nope'",
    'self.?absentObj.?absentStr.hasValue() == false',
    "self.?absentObj.?absentStr.optMap(v, v == 'value').hasValue() == false",
    "self.m[?'k'] == optional.of('v')",
    "self.m[?'k'].or(optional.of('nope')) == optional.of('v')",
    "self.m[?'k'].orValue('') == 'v'",
    "self.m[?'k'].hasValue() == true",
    "self.m[?'k'].optMap(v, v == 'v').hasValue()",
    "self.m[?'x'] == optional.none()",
    "self.m[?'x'].or(optional.of('nope')) == optional.of('nope')",
    "self.m[?'x'].orValue('nope') == 'nope'",
    "self.m[?'x'].hasValue() == false",
    "self.m[?'x'].hasValue() == false",
    "self.l[?0] == optional.of('a')",
    'self.l[?1] == optional.none()',
    "self.l[?0].orValue('') == 'a'",
    'self.l[?0].hasValue() == true',
    "self.l[?0].optMap(v, v == 'a').hasValue()",
    'self.l[?1] == optional.none()',
    "self.l[?1].or(optional.of('nope')) == optional.of('nope')",
    "self.l[?1].orValue('nope') == 'nope'",
    'self.l[?1].hasValue() == false',
    'self.l[?1].hasValue() == false',
    'optional.ofNonZeroValue(1).hasValue()',
    'optional.ofNonZeroValue(uint(1)).hasValue()',
    'optional.ofNonZeroValue(1.1).hasValue()',
    "optional.ofNonZeroValue('a').hasValue()",
    'optional.ofNonZeroValue(true).hasValue()',
    "optional.ofNonZeroValue(['a']).hasValue()",
    "optional.ofNonZeroValue({'k': 'v'}).hasValue()",
    "optional.ofNonZeroValue(timestamp('2011-08-18T00:00:00.000+01:00')).hasValue()",
    "optional.ofNonZeroValue(duration('19h3m37s10ms')).hasValue()",
    'optional.ofNonZeroValue(null) == optional.none()',
    'optional.ofNonZeroValue(0) == optional.none()',
    'optional.ofNonZeroValue(uint(0)) == optional.none()',
    'optional.ofNonZeroValue(0.0) == optional.none()',
    "optional.ofNonZeroValue('') == optional.none()",
    'optional.ofNonZeroValue(false) == optional.none()',
    'optional.ofNonZeroValue([]) == optional.none()',
    'optional.ofNonZeroValue({}) == optional.none()',
    "optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00.000+00:00')) == optional.none()",
    "optional.ofNonZeroValue(duration('0s')) == optional.none()",
  ]) {
    it(rule, () => assert.deepEqual(run(optionals, rule, optionalsValue), []));
  }
  it('a missing field before ?. is an error', () => {
    const [e] = run(optionals, 'self.absentObj.?absentStr == optional.none()', optionalsValue);
    assert.match(e, /no such key: absentObj evaluating rule/);
  });
});
