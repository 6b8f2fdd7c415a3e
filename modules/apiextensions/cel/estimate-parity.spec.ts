// kube's estimated rule costs for schemas without size limits (figures from apiextensions-apiserver v1.32's cost
// stability tests): a CRD that compiles within budget on kube must compile here, and one over it must not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Schema } from '../../api/index.js';
import { compileRules } from './compile.js';
import { declType } from './decl-type.js';

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
/** an object with properties val1, val2, ... */
const vals = (...schemas: Schema[]): Schema =>
  object(Object.fromEntries(schemas.map((s, i) => [`val${i + 1}`, s])));

const equalsLiteral = (a: string, b: string, literal: string) =>
  `${a} == ${literal} && ${literal} == ${a} && ${a} == ${b}`;

const cases: [string, Schema, Record<string, number>][] = [
  [
    'integers',
    vals(integer, integer),
    { [equalsLiteral('self.val1', 'self.val2', '9223372036854775807')]: 8, 'type(self.val1) == int': 4 },
  ],
  ['numbers', vals(number, number), { 'type(self.val1) == double': 4, 'self.val1 == 1.0': 2 }],
  [
    'strings',
    vals(string, string),
    {
      [equalsLiteral('self.val1', 'self.val2', "'Rook takes 👑'")]: 314585,
      "self.val1.startsWith('Rook')": 3,
      "!self.val1.startsWith('knight')": 4,
      "self.val1.matches('^[^0-9]*$')": 943721,
      "!self.val1.matches('^[0-9]*$')": 629149,
      'type(self.val1) == string': 4,
      'size(self.val1) == 12': 4,
      "self.val1.upperAscii() == 'ROOK TAKES 👑'": 314577,
      'self.val1.lowerAscii() == self.val1.lowerAscii()': 943723,
      "self.val1.substring(5) == 'takes 👑'": 314576,
      "self.val1.split(' ') == ['Rook', 'takes', '👑']": 629159,
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'": 629150,
    },
  ],
  [
    'bytes',
    vals(bytes, bytes),
    { 'self.val1 == self.val2': 314577, "self.val1 == b'AB'": 3, 'size(self.val1) == 2': 4 },
  ],
  ['booleans', vals(boolean, boolean), { [equalsLiteral('self.val1', 'self.val2', 'true')]: 8 }],
  [
    'durations',
    vals(duration, duration),
    {
      [equalsLiteral('self.val1', 'self.val2', "duration('1h2m3s4ms')")]: 16,
      "self.val1 == duration('1h2m') + duration('3s4ms')": 6,
      'self.val1.getHours() == 1': 4,
    },
  ],
  [
    'dates',
    vals(date, date),
    { [equalsLiteral('self.val1', 'self.val2', "timestamp('1997-07-16T00:00:00.000Z')")]: 14 },
  ],
  ['date-times', vals(dateTime, dateTime), { 'self.val1.getDate() == 18': 4 }],
  [
    'conversions',
    vals(integer, number, number, number, boolean, string, bytes, string, duration, string, dateTime),
    {
      'int(self.val2) == self.val1': 5,
      'double(self.val1) == self.val2': 5,
      'bytes(self.val6) == self.val7': 629150,
      'string(self.val1) == self.val6': 314578,
      'duration(self.val8) == self.val9': 6,
      'timestamp(self.val10) == self.val11': 6,
    },
  ],
  [
    'lists',
    vals(list(integer), list(integer)),
    {
      [equalsLiteral('self.val1', 'self.val2', '[1, 2, 3]')]: 157317,
      '1 in self.val1': 1572865,
      '!(0 in self.val1)': 1572866,
      'self.val1 + [4, 5] == [1, 2, 3, 4, 5]': 24,
      'has(self.val1)': 1,
      '!has(self.val1)': 2,
      'self.val1.all(k, size(self.val1) > 0)': 11010044,
      'size(self.val1) == 2': 4,
      'size(self.val1.filter(k, size(self.val1) > 1)) == 1': 26738686,
    },
  ],
  [
    'sets',
    vals(set(string), set(string)),
    {
      "self.val1 == ['c', 'b', 'a']": 13,
      'self.val1 == self.val2': 104862,
      "'a' in self.val1": 1048577,
      'self.val1.all(k, size(self.val1) > 0)': 7340028,
      "self.val1.exists_one(k, self.val1 == ['a'])": 15728629,
    },
  ],
  [
    'maps',
    vals(map(string), map(string)),
    {
      'self.val1 == self.val2': 39326,
      "'k1' in self.val1": 3,
      "self.val1 == {'k1': 'a', 'k2': 'b'}": 33,
      'self.val1.all(k, size(self.val1) > 0)': 2752508,
      'size(self.val1.filter(k, size(self.val1) > 1)) == 1': 6684670,
    },
  ],
  [
    'map access',
    object({ val: map(integer) }),
    {
      "!('a' in self.val)": 4,
      'has(self.val.b)': 2,
      'self.val.all(k, self.val[k] > 0)': 3595115,
      'self.val.exists_one(k, self.val[k] == 2)': 2696338,
    },
  ],
  [
    'object access',
    object({
      a: object({ b: integer }),
      a1: object({ b1: object({ c1: integer }), d2: object({ e2: integer }) }),
    }),
    {
      'has(self.a.b)': 2,
      'has(self.a1.b1.c1)': 3,
      '!(has(self.a1.d2) && has(self.a1.d2.e2))': 6,
      'has(self.a)': 1,
    },
  ],
  [
    'list of integers',
    object({ array: list(integer) }),
    {
      '2 in self.array': 1572865,
      'self.array.all(e, e > 0)': 7864318,
      'self.array.exists(e, e > 2)': 9437181,
      'self.array.exists_one(e, e > 4)': 6291456,
      'size(self.array.filter(e, e%2 == 0)) == 3': 25165823,
      'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)': 53477367,
    },
  ],
  [
    'map lists',
    object({
      listMap: {
        ...list(object({ k: string, v: string, v2: string })),
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['k'],
      },
    }),
    {
      'has(self.listMap[0].v)': 3,
      "self.listMap.all(m, m.k.startsWith('a'))": 6291453,
      "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')": 8388603,
      "self.listMap.exists_one(m, m.k == 'a3')": 5242879,
      "self.listMap.map(m, m.v).exists(v, v == 'b1')": 19922939,
    },
  ],
  [
    'type and object meta',
    object({ kind: string, apiVersion: string, metadata: object({ name: string, generateName: string }) }),
    { "self.kind == 'Pod'": 3, "self.metadata.generateName == 'pickItForMe'": 5 },
  ],
  [
    'embedded resources',
    object({ embedded: { type: 'object', 'x-kubernetes-embedded-resource': true } }),
    { "self.embedded.kind == 'Pod'": 4, "self.embedded.metadata.name == 'foo'": 5 },
  ],
];

describe("estimated rule costs (kube's figures)", () => {
  for (const [name, schema, costs] of cases) {
    describe(name, () => {
      for (const [rule, cost] of Object.entries(costs)) {
        it(`${rule}: ${cost}`, () => {
          const { rules } = compileRules([{ rule }], schema, declType(schema, false));
          assert.equal(rules[0].error, undefined);
          assert.equal(rules[0].maxCost, cost);
        });
      }
    });
  }
});
