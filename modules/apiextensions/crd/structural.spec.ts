/** Structural-schema rules and the schema walk, as kube words them, through validateCRD. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError, type Schema } from '../../api/index.js';
import { widgetCRD } from './spec-crds.js';
import { validateCRD } from './validation.js';

const P = 'spec.validation.openAPIV3Schema';

/** The errors of a one-version CRD with this schema (no subresources unless asked). */
function errorsFor(schema: unknown, status = false): string[] {
  const crd = widgetCRD((c) => {
    const v = c.spec.versions![0];
    v.schema = { openAPIV3Schema: schema as Schema };
    v.subresources = status ? { status: {} } : undefined;
    v.additionalPrinterColumns = undefined;
  });
  return validateCRD(crd).map(formatFieldError);
}

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});
const spec = (properties: Record<string, unknown>) => obj({ spec: obj(properties) });

describe('structural schemas', () => {
  const cases: { name: string; schema: unknown; status?: boolean; want: string[] }[] = [
    { name: 'an object with typed fields', schema: spec({ a: { type: 'string' } }), want: [] },
    {
      name: 'type everywhere',
      schema: { properties: { spec: { properties: { a: {} } }, list: { type: 'array', items: {} } } },
      want: [
        `${P}.properties[list].items.type: Required value: must not be empty for specified array items`,
        `${P}.properties[spec].properties[a].type: Required value: must not be empty for specified object fields`,
        `${P}.properties[spec].type: Required value: must not be empty for specified object fields`,
        `${P}.type: Required value: must not be empty at the root`,
      ],
    },
    {
      name: 'no type under preserve-unknown-fields or int-or-string',
      schema: spec({
        any: { 'x-kubernetes-preserve-unknown-fields': true },
        port: { 'x-kubernetes-int-or-string': true },
      }),
      want: [],
    },
    {
      name: 'the root is an object',
      schema: { type: 'string' },
      want: [`${P}.type: Invalid value: "string": must be object at the root`],
    },
    {
      name: 'arrays have items',
      schema: spec({ list: { type: 'array' } }),
      want: [`${P}.properties[spec].properties[list].items: Required value: must be specified`],
    },
    {
      name: 'no additionalProperties at the root',
      schema: { type: 'object', additionalProperties: { type: 'string' } },
      want: [`${P}.additionalProperties: Forbidden: must not be used at the root`],
    },
    {
      name: 'properties and additionalProperties exclude each other',
      schema: spec({
        m: {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: { type: 'string' },
        },
      }),
      want: [
        `${P}.properties[spec].properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      ],
    },
    {
      name: 'int-or-string excludes preserve-unknown-fields and embedded-resource',
      schema: spec({
        x: {
          'x-kubernetes-int-or-string': true,
          'x-kubernetes-preserve-unknown-fields': true,
          'x-kubernetes-embedded-resource': true,
        },
      }),
      want: [
        `${P}.properties[spec].properties[x].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
        `${P}.properties[spec].properties[x].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
        `${P}.properties[spec].properties[x].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      ],
    },
    {
      name: 'the int-or-string anyOf and allOf patterns are allowed',
      schema: spec({
        a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        b: {
          'x-kubernetes-int-or-string': true,
          allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^a' }],
        },
      }),
      want: [],
    },
    {
      name: 'value validations may not declare',
      schema: spec({
        a: {
          type: 'string',
          anyOf: [
            {
              type: 'string',
              description: 'd',
              title: 't',
              nullable: true,
              default: 'x',
              'x-kubernetes-validations': [{ rule: 'true' }],
            },
          ],
          oneOf: [
            {
              'x-kubernetes-preserve-unknown-fields': true,
              'x-kubernetes-list-type': 'set',
              additionalProperties: true,
            },
          ],
          not: {
            'x-kubernetes-int-or-string': true,
            'x-kubernetes-map-type': 'atomic',
            'x-kubernetes-list-map-keys': ['k'],
          },
        },
      }),
      want: [
        `${P}.properties[spec].properties[a].anyOf[0].default: Forbidden: must be undefined to be structural`,
        `${P}.properties[spec].properties[a].anyOf[0].description: Forbidden: must be empty to be structural`,
        `${P}.properties[spec].properties[a].anyOf[0].nullable: Forbidden: must be false to be structural`,
        `${P}.properties[spec].properties[a].anyOf[0].title: Forbidden: must be empty to be structural`,
        `${P}.properties[spec].properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
        `${P}.properties[spec].properties[a].anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
        `${P}.properties[spec].properties[a].not.x-kubernetes-int-or-string: Forbidden: must be false to be structural`,
        `${P}.properties[spec].properties[a].not.x-kubernetes-list-map-keys: Forbidden: must be empty to be structural`,
        `${P}.properties[spec].properties[a].not.x-kubernetes-map-type: Forbidden: must be undefined to be structural`,
        `${P}.properties[spec].properties[a].oneOf[0].additionalProperties: Forbidden: must be undefined to be structural`,
        `${P}.properties[spec].properties[a].oneOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
        `${P}.properties[spec].properties[a].oneOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
        // the walk over every node comes after the structural rules
        `${P}.properties[spec].properties[a].not.type: Required value: must be object if x-kubernetes-map-type is specified`,
        `${P}.properties[spec].properties[a].not.x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
        `${P}.properties[spec].properties[a].oneOf[0].type: Required value: must be array if x-kubernetes-list-type is specified`,
      ],
    },
    {
      name: 'value validations at the root name only declared fields',
      schema: obj(
        { spec: obj({ a: { type: 'string' } }) },
        { anyOf: [{ properties: { spec: { properties: { b: { minLength: 1 } } } } }] },
      ),
      want: [
        `${P}.properties[spec].properties[b]: Required value: because it is defined in ${P}.anyOf[0].properties[spec].properties[b]`,
      ],
    },
    {
      name: 'metadata in a value validation',
      schema: spec({ a: { type: 'object', properties: {}, anyOf: [{ properties: { metadata: {} } }] } }),
      want: [
        `${P}.properties[spec].properties[a].anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
      ],
    },
    {
      name: 'root metadata names only name and generateName',
      schema: obj({
        metadata: obj({ name: { type: 'string', maxLength: 10 }, generateName: { type: 'string' } }),
      }),
      want: [],
    },
    {
      name: 'root metadata holds nothing else',
      schema: obj({ metadata: obj({ labels: { type: 'object' } }, { description: 'meta' }) }),
      want: [
        `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      ],
    },
    {
      name: 'root metadata, kind and apiVersion types',
      schema: obj({
        metadata: { type: 'string' },
        kind: { type: 'integer' },
        apiVersion: { type: 'integer' },
      }),
      want: [
        `${P}.properties[apiVersion].type: Invalid value: "integer": must be string`,
        `${P}.properties[kind].type: Invalid value: "integer": must be string`,
        `${P}.properties[metadata].type: Invalid value: "string": must be object`,
      ],
    },
    {
      name: 'an embedded resource is an object with properties or preserve-unknown-fields',
      schema: spec({
        a: { type: 'string', 'x-kubernetes-embedded-resource': true },
        b: { type: 'object', 'x-kubernetes-embedded-resource': true },
      }),
      want: [
        `${P}.properties[spec].properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
        `${P}.properties[spec].properties[a].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
        `${P}.properties[spec].properties[b].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      ],
    },
    {
      name: 'a pattern must compile as RE2',
      schema: spec({
        a: { type: 'string', pattern: '^(?=a)' },
        b: { type: 'string', pattern: '^[a-z\\-]+$' },
      }),
      want: [
        `${P}.properties[spec].properties[a].pattern: Invalid value: "^(?=a)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
      ],
    },
    {
      name: 'nullable cannot be at the root',
      schema: { type: 'object', nullable: true },
      want: [`${P}.nullable: Forbidden: nullable cannot be true at the root`],
    },
    {
      name: 'with /status only some fields at the root',
      status: true,
      schema: { type: 'object', properties: { spec: { type: 'object' } }, minProperties: 1 },
      want: [
        `${P}: Invalid value: {"type":"object","properties":{"spec":{"type":"object"}},"minProperties":1}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsFor(c.schema, c.status), c.want));
});

describe('features kube does not support', () => {
  const cases: { name: string; schema: unknown; want: string[] }[] = [
    {
      name: '$ref, id, definitions, dependencies, patternProperties, additionalItems, uniqueItems',
      schema: spec({
        a: {
          type: 'object',
          $ref: '#/x',
          id: 'x',
          definitions: { d: { type: 'string' } },
          dependencies: { d: { type: 'string' } },
          patternProperties: { '^a': { type: 'string' } },
          additionalItems: false,
          uniqueItems: true,
        },
      }),
      want: [
        `${P}.properties[spec].properties[a].id: Forbidden: id is not supported`,
        `${P}.properties[spec].properties[a].additionalItems: Forbidden: additionalItems is not supported`,
        `${P}.properties[spec].properties[a].patternProperties: Forbidden: patternProperties is not supported`,
        `${P}.properties[spec].properties[a].definitions: Forbidden: definitions is not supported`,
        `${P}.properties[spec].properties[a].dependencies: Forbidden: dependencies is not supported`,
        `${P}.properties[spec].properties[a].$ref: Forbidden: $ref is not supported`,
        `${P}.properties[spec].properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      ],
    },
    {
      name: '$schema alone: kube cannot build the structural form',
      schema: spec({ a: { type: 'string', $schema: 'http://json-schema.org/draft-04/schema#' } }),
      want: [`${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`],
    },
    {
      name: 'types are OpenAPI v3 types, never null',
      schema: spec({ a: { type: 'null' }, b: { type: 'int' } }),
      want: [
        `${P}.properties[spec].properties[a].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
        `${P}.properties[spec].properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
        `${P}.properties[spec].properties[b].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      ],
    },
    {
      name: 'items is one schema',
      schema: spec({ a: { type: 'array', items: [{ type: 'string' }] } }),
      want: [
        `${P}.properties[spec].properties[a].items: Forbidden: items must be a schema object and not an array`,
      ],
    },
    {
      name: 'preserve-unknown-fields is true or absent',
      schema: spec({ a: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } }),
      want: [
        `${P}.properties[spec].properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsFor(c.schema), c.want));
});

describe('RE2 patterns', () => {
  const cases: { pattern: string; ok: boolean }[] = [
    { pattern: '^(?i)(abort|warn)?$', ok: true },
    { pattern: '^((?i)sun|mon)day$', ok: true },
    { pattern: '^(?i:ab)c$', ok: true },
    { pattern: '^(?P<year>\\d{4})$', ok: true },
    { pattern: '^(?<year>\\d{4})$', ok: true },
    { pattern: '^(a)\\1$', ok: false },
    { pattern: '^(?!a)', ok: false },
    { pattern: '^(a', ok: false },
  ];
  for (const c of cases)
    it(c.pattern, () => {
      const got = errorsFor(spec({ a: { type: 'string', pattern: c.pattern } }));
      assert.equal(got.length === 0, c.ok, got.join('\n'));
    });
});
