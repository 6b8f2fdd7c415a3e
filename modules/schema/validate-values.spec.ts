import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema } from '../api/index.js';
import { validateValues } from './validate-values.js';

/** A custom resource schema whose spec is `spec`. */
const cr = (spec: Schema): Schema => ({
  type: 'object',
  properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, spec },
});
const obj = (spec: Schema): Schema => cr({ type: 'object', properties: spec.properties, ...spec });
const messages = (schema: Schema, value: unknown, options = {}): string[] =>
  validateValues(schema, value, options).map(formatFieldError);

type Case = [name: string, spec: Schema, value: unknown, expected: string[]];

const cases: Case[] = [
  [
    'a string where an integer belongs',
    obj({ properties: { replicas: { type: 'integer' } } }),
    { replicas: 'three' },
    ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
  ],
  [
    'a fraction where an integer belongs',
    obj({ properties: { replicas: { type: 'integer' } } }),
    { replicas: 1.5 },
    ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"'],
  ],
  ['an integer is a number', obj({ properties: { n: { type: 'number' } } }), { n: 5 }, []],
  [
    'null where null is not allowed',
    obj({ properties: { s: { type: 'string' } } }),
    { s: null },
    ['spec.s: Invalid value: "null": spec.s in body must be of type string: "null"'],
  ],
  ['null where nullable', obj({ properties: { s: { type: 'string', nullable: true } } }), { s: null }, []],
  [
    'int-or-string refuses a boolean',
    obj({ properties: { port: { 'x-kubernetes-int-or-string': true } } }),
    { port: true },
    ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"'],
  ],
  [
    'int-or-string takes both',
    obj({
      properties: { a: { 'x-kubernetes-int-or-string': true }, b: { 'x-kubernetes-int-or-string': true } },
    }),
    { a: 1, b: '50%' },
    [],
  ],
  [
    'a formatted string field names its format for a number',
    obj({ properties: { t: { type: 'string', format: 'date-time' } } }),
    { t: 5 },
    ['spec.t: Invalid value: "int64": spec.t in body must be of type date-time: "int64"'],
  ],
  [
    'a formatted string field lets a list through, as kube does',
    obj({ properties: { t: { type: 'string', format: 'date-time' } } }),
    { t: ['x'] },
    [],
  ],
  [
    'format check',
    obj({ properties: { ip: { type: 'string', format: 'ipv4' } } }),
    { ip: '1.2.3' },
    ['spec.ip: Invalid value: "1.2.3": spec.ip in body must be of type ipv4: "1.2.3"'],
  ],
  [
    'formats kube does not check are ignored (int32, unknown names)',
    obj({
      properties: { n: { type: 'integer', format: 'int32' }, s: { type: 'string', format: 'k8s-name' } },
    }),
    { n: 2 ** 40, s: '!!' },
    [],
  ],
  [
    'enum of strings',
    obj({ properties: { mode: { type: 'string', enum: ['a', 'b'] } } }),
    { mode: 'c' },
    ['spec.mode: Unsupported value: "c": supported values: "a", "b"'],
  ],
  [
    'enum of integers',
    obj({ properties: { n: { type: 'integer', enum: [1, 2] } } }),
    { n: 3 },
    ['spec.n: Unsupported value: 3: supported values: "1", "2"'],
  ],
  [
    'enum and null',
    obj({ properties: { s: { type: 'string', nullable: true, enum: ['a'] } } }),
    { s: null },
    ['spec.s: Unsupported value: "null": supported values: "a"'],
  ],
  [
    'a float matches an integer enum value once truncated (Go conversion)',
    obj({ properties: { n: { type: 'number', enum: [1] } } }),
    { n: 1.5 },
    [],
  ],
  [
    'maxLength counts characters',
    obj({ properties: { a: { type: 'string', maxLength: 2 }, b: { type: 'string', maxLength: 2 } } }),
    { a: '😀é', b: 'abc' },
    ['spec.b: Too long: may not be more than 2 bytes'],
  ],
  [
    'minLength',
    obj({ properties: { name: { type: 'string', minLength: 2 } } }),
    { name: 'a' },
    ['spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long'],
  ],
  [
    'only the first failing string check is reported',
    obj({ properties: { name: { type: 'string', maxLength: 2, pattern: '^[a-z]+$' } } }),
    { name: 'ABC' },
    ['spec.name: Too long: may not be more than 2 bytes'],
  ],
  [
    'pattern',
    obj({ properties: { name: { type: 'string', pattern: '^[a-z]+$' } } }),
    { name: 'ABC' },
    ['spec.name: Invalid value: "ABC": spec.name in body should match \'^[a-z]+$\''],
  ],
  [
    'Go regexp syntax',
    obj({
      properties: {
        a: { type: 'string', pattern: '^\\w+\\z' },
        b: { type: 'string', pattern: '^[[:alpha:]]+$' },
        c: { type: 'string', pattern: '(?i)^abc$' },
        d: { type: 'string', pattern: '^a\\-b\\_c$' },
      },
    }),
    { a: 'x_1', b: 'abc', c: 'ABC', d: 'a-b_c' },
    [],
  ],
  [
    'properties named like Object.prototype members are only checked when present',
    obj(
      JSON.parse(
        '{"required":["toString"],"properties":{"constructor":{"type":"string"},"toString":{"type":"string"}}}',
      ),
    ),
    {},
    ['spec.toString: Required value'],
  ],
  [
    'maximum',
    obj({ properties: { n: { type: 'integer', maximum: 10 } } }),
    { n: 11 },
    ['spec.n: Invalid value: 11: spec.n in body should be less than or equal to 10'],
  ],
  [
    'exclusiveMinimum',
    obj({ properties: { n: { type: 'integer', minimum: 0, exclusiveMinimum: true } } }),
    { n: 0 },
    ['spec.n: Invalid value: 0: spec.n in body should be greater than 0'],
  ],
  [
    'a float against a bound prints both as Go does',
    obj({ properties: { n: { type: 'number', maximum: 1000000 } } }),
    { n: 1000000.5 },
    ['spec.n: Invalid value: 1.0000005e+06: spec.n in body should be less than or equal to 1e+06'],
  ],
  [
    'an integer is compared with the bound truncated',
    obj({ properties: { a: { type: 'integer', maximum: 10.5 }, b: { type: 'integer', maximum: 10.5 } } }),
    { a: 10, b: 11 },
    ['spec.b: Invalid value: 11: spec.b in body should be less than or equal to 10'],
  ],
  [
    'multipleOf',
    obj({ properties: { n: { type: 'integer', multipleOf: 3 }, f: { type: 'number', multipleOf: 0.1 } } }),
    { n: 10, f: 0.3 },
    ['spec.n: Invalid value: 10: spec.n in body should be a multiple of 3'],
  ],
  [
    'a fractional multipleOf against an integer (kube truncates the factor to 0)',
    obj({ properties: { n: { type: 'integer', multipleOf: 0.5 } } }),
    { n: 3 },
    ['spec.n: Invalid value: 0: factor MultipleOf declared for spec.n must be positive: 0'],
  ],
  [
    'list bounds and uniqueness',
    obj({
      properties: {
        a: { type: 'array', items: { type: 'string' }, minItems: 2 },
        b: { type: 'array', items: { type: 'string' }, maxItems: 2 },
        c: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      },
    }),
    { a: ['x'], b: ['x', 'y', 'z'], c: ['x', 'x'] },
    [
      'spec.a: Invalid value: 1: spec.a in body should have at least 2 items',
      'spec.b: Too many: 3: must have at most 2 items',
      'spec.c: Invalid value: "": spec.c in body shouldn\'t contain duplicates',
    ],
  ],
  [
    'property counts',
    obj({
      properties: {
        a: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1 },
        b: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 1 },
      },
    }),
    { a: {}, b: { x: '1', y: '2' } },
    [
      'spec.a: Invalid value: 0: spec.a in body should have at least 1 properties',
      'spec.b: Too many: 2: must have at most 1 items',
    ],
  ],
  [
    'required',
    obj({ required: ['name'], properties: { name: { type: 'string' } } }),
    {},
    ['spec.name: Required value'],
  ],
  [
    'map values and list items are named as kube-openapi names them',
    obj({
      properties: {
        m: { type: 'object', additionalProperties: { type: 'integer' } },
        l: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    }),
    { m: { a: 'x' }, l: [{ name: 'ok' }, { name: 1 }] },
    [
      'spec.m.a: Invalid value: "string": spec.m.a in body must be of type integer: "string"',
      'spec.l[1].name: Invalid value: "integer": spec.l[1].name in body must be of type string: "integer"',
    ],
  ],
  [
    'additionalProperties false',
    obj({ additionalProperties: false, properties: { a: { type: 'string' } } }),
    { a: 'x', b: 'y' },
    ['spec: Invalid value: "b": spec.b in body is a forbidden property'],
  ],
  [
    'anyOf: none matches, the first of the equally good failures is reported',
    obj({ anyOf: [{ required: ['a'] }, { required: ['b'] }] }),
    {},
    ['<nil>: Invalid value: "": "spec" must validate at least one schema (anyOf)', 'spec.a: Required value'],
  ],
  [
    'anyOf: the failure that passed more checks is reported (MatchCount)',
    obj({
      properties: { a: { type: 'integer' } },
      anyOf: [{ required: ['x'] }, { properties: { a: { maximum: 0 } } }],
    }),
    { a: 1 },
    [
      '<nil>: Invalid value: "": "spec" must validate at least one schema (anyOf)',
      'spec.a: Invalid value: 1: spec.a in body should be less than or equal to 0',
    ],
  ],
  ['anyOf: one matches', obj({ anyOf: [{ required: ['a'] }, { required: ['b'] }] }), { b: 1 }, []],
  [
    'oneOf: none valid',
    obj({ oneOf: [{ required: ['a'] }, { required: ['b'] }] }),
    {},
    [
      '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found none valid',
      'spec.a: Required value',
    ],
  ],
  [
    'oneOf: two valid',
    obj({ oneOf: [{ required: ['a'] }, { required: ['b'] }] }),
    { a: 1, b: 2 },
    [
      '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ],
  ],
  [
    'allOf: the failures, then the summary, each message once',
    obj({ allOf: [{ required: ['a'] }, { required: ['a'] }] }),
    {},
    [
      'spec.a: Required value',
      '<nil>: Invalid value: "": "spec" must validate all the schemas (allOf). None validated',
    ],
  ],
  [
    'not',
    obj({ not: { required: ['a'] } }),
    { a: 1 },
    ['<nil>: Invalid value: "": "spec" must not validate the schema (not)'],
  ],
];

describe('validateValues', () => {
  for (const [name, schema, spec, expected] of cases) {
    it(name, () => assert.deepEqual(messages(schema, { spec }), expected));
  }

  it('a required root field is named without a leading dot', () => {
    const schema: Schema = { type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } };
    assert.deepEqual(messages(schema, {}), ['spec: Required value']);
  });

  it('reports under the given path (the status subresource)', () => {
    const status: Schema = { type: 'object', properties: { ready: { type: 'boolean' } } };
    assert.deepEqual(messages(status, { ready: 'yes' }, { path: 'status' }), [
      'status.ready: Invalid value: "string": ready in body must be of type boolean: "string"',
    ]);
    assert.deepEqual(messages(status, 'x', { path: 'status' }), [
      'status: Invalid value: "string":  in body must be of type object: "string"',
    ]);
  });

  it('gives kube error types and causes', () => {
    const errs = validateValues(obj({ properties: { n: { type: 'integer' } } }), { spec: { n: 'x' } });
    assert.equal(errs[0].type, 'TypeInvalid');
    assert.equal(errs[0].field, 'spec.n');
  });
});
