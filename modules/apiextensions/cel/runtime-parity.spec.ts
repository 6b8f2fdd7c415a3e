// kube's runtime cost of rules on given values (figures from apiextensions-apiserver v1.32's cost stability
// tests), measured through the object budget: a rule costing C passes with budget C and runs out with C - 1.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema } from '../../api/index.js';
import { compileValidator } from './index.js';

const integer: Schema = { type: 'integer' };
const number: Schema = { type: 'number' };
const string: Schema = { type: 'string' };
const bytes: Schema = { type: 'string', format: 'byte' };
const boolean: Schema = { type: 'boolean' };
const duration: Schema = { type: 'string', format: 'duration' };
const date: Schema = { type: 'string', format: 'date' };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const list = (items: Schema): Schema => ({ type: 'array', items });
const set = (items: Schema): Schema => ({ ...list(items), 'x-kubernetes-list-type': 'set' });
const map = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });
const object = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties });
const vals = (...schemas: Schema[]): Schema =>
  object(Object.fromEntries(schemas.map((s, i) => [`val${i + 1}`, s])));
const objs = (...values: unknown[]) => Object.fromEntries(values.map((v, i) => [`val${i + 1}`, v]));
const equalsLiteral = (a: string, b: string, literal: string) =>
  `${a} == ${literal} && ${literal} == ${a} && ${a} == ${b}`;

const cases: [string, Schema, Record<string, unknown>, Record<string, number>][] = [
  [
    'integers',
    vals(integer, integer, integer),
    objs(9007199254740991, 9007199254740991, 2147483647),
    {
      [equalsLiteral('self.val1', 'self.val2', '9007199254740991')]: 11,
      'type(self.val1) == int': 4,
      'self.val3 + 1 == 2147483647 + 1': 5,
    },
  ],
  ['numbers', vals(number, number), objs(1.5, 1), { 'type(self.val1) == double': 4, 'self.val2 == 1.0': 3 }],
  [
    'numeric comparisons',
    vals(integer, number),
    objs(5, 10),
    { 'double(self.val1) < self.val2': 6, 'self.val1 < int(self.val2)': 6, 'double(self.val1) < 10.0': 4 },
  ],
  [
    'strings',
    vals(string, string),
    objs('Rook takes 👑', 'Rook takes 👑'),
    {
      [equalsLiteral('self.val1', 'self.val2', "'Rook takes 👑'")]: 14,
      "self.val1.startsWith('Rook')": 4,
      "!self.val1.startsWith('knight')": 5,
      "self.val1.matches('^[^0-9]*$')": 8,
      "!self.val1.matches('^[0-9]*$')": 7,
      'size(self.val1) == 12': 4,
      "self.val1.indexOf('o') == 1": 4,
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'": 7,
      "self.val1.split(' ') == ['Rook', 'takes', '👑']": 6,
      "self.val1.substring(4, 10).trim() == 'takes'": 6,
      'self.val1.lowerAscii() == self.val1.lowerAscii()': 10,
    },
  ],
  [
    'bytes',
    vals(bytes, bytes),
    objs('QUI=', 'QUI='),
    { 'self.val1 == self.val2': 5, "self.val1 == b'AB'": 3, 'size(self.val1) == 2': 4 },
  ],
  [
    'booleans',
    vals(boolean, boolean, boolean, boolean),
    objs(true, true, false, false),
    { 'self.val1 != self.val4': 5 },
  ],
  [
    'durations',
    vals(duration, duration),
    objs('1h2m3s4ms', '1h2m3s4ms'),
    {
      [equalsLiteral('self.val1', 'self.val2', "duration('1h2m3s4ms')")]: 11,
      "self.val1 == duration('1h2m') + duration('3s4ms')": 4,
      'self.val1.getHours() == 1': 4,
    },
  ],
  ['dates', vals(date, date), objs('1997-07-16', '1997-07-16'), { 'self.val1.getDate() == 16': 4 }],
  [
    'date-times',
    vals(dateTime, dateTime),
    objs('2011-08-18T19:03:37.010000000+01:00', '2011-08-18T19:03:37.010000000+01:00'),
    { "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')": 4 },
  ],
  [
    'enums',
    object({ enumStr: { ...string, enum: ['Pending', 'Available'] } }),
    { enumStr: 'Pending' },
    { "self.enumStr == 'Pending'": 3, "self.enumStr in ['Pending', 'Available']": 2 },
  ],
  [
    'conversions',
    vals(integer, number, number, number, boolean, string, bytes, string, duration),
    objs(10, 10.0, 10.49, 10.5, true, '10', 'MTA=', '3723.004s', '1h2m3s4ms'),
    {
      'int(self.val2) == self.val1': 6,
      'double(self.val1) == self.val2': 6,
      'bytes(self.val6) == self.val7': 6,
      'string(self.val1) == self.val6': 6,
      "string(self.val4) == '10.5'": 4,
      'duration(self.val8) == self.val9': 6,
    },
  ],
  [
    'lists',
    vals(list(integer), list(integer)),
    objs([1, 2, 3], [1, 2, 3]),
    {
      [equalsLiteral('self.val1', 'self.val2', '[1, 2, 3]')]: 11,
      '1 in self.val1': 5,
      'self.val2[0] in self.val1': 8,
      '!(0 in self.val1)': 6,
      'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]': 6,
      'self.val1 + [4, 5] == [1, 2, 3, 4, 5]': 4,
      'has(self.val1)': 1,
    },
  ],
  [
    'sets',
    vals(set(string), set(string)),
    objs(['a', 'b', 'c'], ['a', 'c', 'b']),
    {
      "self.val1 == ['c', 'b', 'a']": 3,
      'self.val1 == self.val2': 5,
      "'a' in self.val1": 5,
      "self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']": 4,
      "sets.contains(self.val1, ['a'])": 6,
      "sets.equivalent(self.val1, ['a', 'b', 'c'])": 21,
    },
  ],
  [
    'maps',
    vals(map(string), map(string)),
    objs({ k1: 'a', k2: 'b' }, { k2: 'b', k1: 'a' }),
    { 'self.val1 == self.val2': 5, "'k1' in self.val1": 3, "!('k3' in self.val1)": 4 },
  ],
  [
    'objects',
    object({ objs: list(object({ f1: string, f2: string })) }),
    {
      objs: [
        { f1: 'a', f2: 'b' },
        { f1: 'a', f2: 'b' },
      ],
    },
    { 'self.objs[0] == self.objs[1]': 7 },
  ],
];

function validate(schema: Schema, rule: string, spec: unknown, budget: number): string[] {
  const root: Schema = {
    type: 'object',
    properties: { spec: { ...schema, 'x-kubernetes-validations': [{ rule }] } },
  };
  return compileValidator(root)!.validate({ spec }, undefined, { budget }).map(formatFieldError);
}

describe("runtime rule costs (kube's figures)", () => {
  for (const [name, schema, values, costs] of cases) {
    describe(name, () => {
      for (const [rule, cost] of Object.entries(costs)) {
        it(`${rule}: ${cost}`, () => {
          assert.deepEqual(validate(schema, rule, values, cost), []);
          assert.deepEqual(validate(schema, rule, values, cost - 1), [
            'spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
          ]);
        });
      }
    });
  }
});
