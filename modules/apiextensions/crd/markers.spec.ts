/** x-kubernetes-* markers, defaults and the static checks of x-kubernetes-validations, as kube words them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError, type FieldError, type Schema } from '../../api/index.js';
import { widgetCRD } from './spec-crds.js';
import { validateCRD, type CRDValidationOptions } from './validation.js';

const P = 'spec.validation.openAPIV3Schema';
const S = `${P}.properties[spec]`;

function errorsFor(specProps: Record<string, unknown>, opts: CRDValidationOptions = {}): string[] {
  const crd = widgetCRD((c) => {
    const v = c.spec.versions![0];
    v.schema = {
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: specProps as Record<string, Schema> } },
      },
    };
    v.subresources = undefined;
    v.additionalPrinterColumns = undefined;
  });
  return validateCRD(crd, opts).map(formatFieldError);
}

const item = (properties: Record<string, unknown>, required?: string[]) => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});

describe('list and map markers', () => {
  const cases: { name: string; props: Record<string, unknown>; want: string[] }[] = [
    {
      name: 'a map list keyed by required or defaulted scalars',
      props: {
        l: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name', 'proto'],
          items: item({ name: { type: 'string' }, proto: { type: 'string', default: 'TCP' } }, ['name']),
        },
      },
      want: [],
    },
    {
      name: 'markers need the right type',
      props: {
        a: { type: 'string', 'x-kubernetes-list-type': 'set' },
        b: { type: 'string', 'x-kubernetes-map-type': 'atomic' },
      },
      want: [
        `${S}.properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
        `${S}.properties[b].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
      ],
    },
    {
      name: 'unknown marker values',
      props: {
        a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' },
        b: { type: 'object', 'x-kubernetes-map-type': 'fine' },
      },
      want: [
        `${S}.properties[a].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
        `${S}.properties[b].x-kubernetes-map-type: Unsupported value: "fine": supported values: "atomic", "granular"`,
      ],
    },
    {
      name: 'map keys need a map list',
      props: {
        a: {
          type: 'array',
          items: item({ k: { type: 'string' } }, ['k']),
          'x-kubernetes-list-map-keys': ['k'],
        },
        b: {
          type: 'array',
          items: item({ k: { type: 'string' } }, ['k']),
          'x-kubernetes-list-type': 'atomic',
          'x-kubernetes-list-map-keys': ['k'],
        },
      },
      want: [
        `${S}.properties[a].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
        `${S}.properties[b].x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
      ],
    },
    {
      name: 'a map list needs keys that are scalar item properties, once each',
      props: {
        a: { type: 'array', items: item({}), 'x-kubernetes-list-type': 'map' },
        b: {
          type: 'array',
          items: { type: 'string' },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
        },
        c: {
          type: 'array',
          items: item({ o: { type: 'object' }, k: { type: 'string' } }, ['o', 'k']),
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['o', 'missing', 'k', 'k'],
        },
      },
      want: [
        `${S}.properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
        `${S}.properties[b].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
        `${S}.properties[c].items.properties[o].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
        `${S}.properties[c].x-kubernetes-list-map-keys: Invalid value: ["o","missing","k","k"]: entries must all be names of item properties`,
        `${S}.properties[c].x-kubernetes-list-map-keys: Invalid value: ["o","missing","k","k"]: must not contain duplicate entries`,
      ],
    },
    {
      name: 'map keys must always be there, and never null',
      props: {
        a: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { ...item({ k: { type: 'string', nullable: true } }), nullable: true },
        },
      },
      want: [
        `${S}.properties[a].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map`,
        `${S}.properties[a].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
        `${S}.properties[a].items.properties[k].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
      ],
    },
    {
      name: 'set items merge as one value',
      props: {
        a: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'map' },
        },
        b: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
        },
        c: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
      },
      want: [
        // a node's children are walked before its own markers
        `${S}.properties[a].items.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
        `${S}.properties[a].items.items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
        `${S}.properties[a].items.x-kubernetes-list-type: Invalid value: "map": must be atomic as item of a list with x-kubernetes-list-type=set`,
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsFor(c.props), c.want));
});

describe('defaults', () => {
  const cases: { name: string; props: Record<string, unknown>; want: string[] }[] = [
    { name: 'a scalar default', props: { a: { type: 'string', default: 'x' } }, want: [] },
    {
      name: 'a default must survive pruning',
      props: { a: { type: 'object', properties: { b: { type: 'string' } }, default: { b: 'x', c: 'y' } } },
      want: [`${S}.properties[a].default: Invalid value: {"b":"x","c":"y"}: must not have unknown fields`],
    },
    {
      name: 'unknown fields may stay under preserve-unknown-fields',
      props: {
        a: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { b: 'x', c: { d: 1 } } },
      },
      want: [],
    },
    {
      name: 'a map default keeps its keys',
      props: { a: { type: 'object', additionalProperties: { type: 'string' }, default: { x: 'y' } } },
      want: [],
    },
    {
      name: 'an embedded resource default keeps apiVersion, kind and metadata',
      props: {
        a: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'string' } },
          default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: 'x' },
        },
      },
      want: [],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsFor(c.props), c.want));

  it('no defaults in top-level metadata, apiVersion or kind', () => {
    const crd = widgetCRD((c) => {
      c.spec.versions![0].schema = {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            kind: { type: 'string', default: 'Widget' },
            metadata: { type: 'object', properties: { name: { type: 'string', default: 'w' } } },
          },
        },
      };
    });
    assert.deepEqual(validateCRD(crd).map(formatFieldError), [
      `${P}.properties[kind].default: Forbidden: must not be set in top-level kind`,
      `${P}.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata`,
    ]);
  });

  it('asks the values module to judge each default', () => {
    const calls: string[] = [];
    const judge = (schema: Schema, value: unknown, path: string): FieldError[] => {
      calls.push(`${path} ${JSON.stringify(value)} ${schema.type}`);
      return typeof value === 'string'
        ? []
        : [{ type: 'Invalid', field: path, value, detail: 'must be a string' }];
    };
    const got = errorsFor(
      { a: { type: 'string', default: 'x' }, b: { type: 'string', default: 3 } },
      { validateDefault: judge },
    );
    assert.deepEqual(calls, [`${S}.properties[a].default "x" string`, `${S}.properties[b].default 3 string`]);
    assert.deepEqual(got, [`${S}.properties[b].default: Invalid value: 3: must be a string`]);
  });
});

describe('x-kubernetes-validations, statically', () => {
  const rules = (list: unknown[]) => ({
    a: { type: 'object', properties: { x: { type: 'string' } }, 'x-kubernetes-validations': list },
  });
  const R = `${S}.properties[a].x-kubernetes-validations`;
  const cases: { name: string; list: unknown[]; want: string[] }[] = [
    {
      name: 'a rule with a message and a field path',
      list: [{ rule: 'self.x != ""', message: 'x', fieldPath: '.x', reason: 'FieldValueForbidden' }],
      want: [],
    },
    {
      name: 'rule, message and messageExpression must say something',
      list: [{ rule: ' ' }, { rule: 'true', message: ' ' }, { rule: 'true', messageExpression: ' ' }],
      want: [
        `${R}[0].rule: Required value: rule is not specified`,
        `${R}[1].message: Invalid value: " ": message must be non-empty if specified`,
        `${R}[2].messageExpression: Required value: messageExpression must be non-empty if specified`,
      ],
    },
    {
      name: 'line breaks',
      list: [{ rule: 'true', message: 'a\nb' }, { rule: 'true &&\ntrue' }],
      want: [
        `${R}[0].message: Invalid value: "a\\nb": message must not contain line breaks`,
        `${R}[1].message: Required value: message must be specified if rule contains line breaks`,
      ],
    },
    {
      name: 'reason and fieldPath',
      list: [
        { rule: 'true', reason: 'FieldValueTooLong', fieldPath: '.y' },
        { rule: 'true', fieldPath: '.x[0]' },
      ],
      want: [
        `${R}[0].reason: Unsupported value: "FieldValueTooLong": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
        `${R}[0].fieldPath: Invalid value: ".y": fieldPath must be a valid path`,
        `${R}[1].fieldPath: Invalid value: ".x[0]": fieldPath must be a valid path`,
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsFor(rules(c.list)), c.want));
});
