// A route-like CRD of our own with the CEL features real CRDs (Gateway API, Karpenter, Envoy Gateway) lean on:
// bounded lists whose sizes keep rule costs in budget, map lists keyed by name, rules on list items and on the
// object holding them, messageExpression, fieldPath and reason, an immutable field, and the optional-oldSelf form.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema } from '../../api/index.js';
import { compileSchemaRules, compileValidator } from './index.js';

const pathMatch: Schema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['Exact', 'PathPrefix', 'RegularExpression'] },
    value: { type: 'string', maxLength: 1024 },
  },
  'x-kubernetes-validations': [
    {
      rule: "(self.type in ['Exact', 'PathPrefix']) ? self.value.startsWith('/') : true",
      message: "value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
    },
    {
      rule: "(self.type in ['Exact', 'PathPrefix']) ? !self.value.endsWith('/..') : true",
      message: "must not end with '/..' when type one of ['Exact', 'PathPrefix']",
    },
  ],
};

const route: Schema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      required: ['className'],
      properties: {
        className: { type: 'string', maxLength: 63 },
        hostnames: {
          type: 'array',
          maxItems: 16,
          items: { type: 'string', maxLength: 253 },
          'x-kubernetes-validations': [
            {
              rule: "self.all(h, h.matches('^(\\\\*\\\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'))",
              message: 'hostnames must be DNS names, optionally with a leading wildcard',
            },
          ],
        },
        backends: {
          type: 'array',
          maxItems: 16,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string', maxLength: 63 },
              port: { type: 'integer', minimum: 1, maximum: 65535 },
              weight: { type: 'integer' },
            },
            'x-kubernetes-validations': [
              {
                rule: 'self.weight >= oldSelf.weight',
                message: 'a backend weight may not decrease',
                reason: 'FieldValueForbidden',
              },
            ],
          },
        },
        rules: {
          type: 'array',
          maxItems: 16,
          items: {
            type: 'object',
            properties: {
              name: { type: 'string', maxLength: 63 },
              matches: {
                type: 'array',
                maxItems: 8,
                items: { type: 'object', properties: { path: pathMatch } },
              },
              timeout: { type: 'string', format: 'duration' },
            },
            'x-kubernetes-validations': [
              {
                rule: "!has(self.timeout) || self.timeout <= duration('1h')",
                // string(self.timeout) would be of unknown length: its concatenation's estimate is unbounded
                messageExpression: "'rule ' + self.name + ' has a timeout over 1h'",
                fieldPath: '.timeout',
              },
            ],
          },
        },
      },
      'x-kubernetes-validations': [
        { rule: 'self.className == oldSelf.className', message: 'className is immutable' },
        {
          rule: '!has(self.backends) || self.backends.filter(b, b.weight > 0).size() > 0',
          message: 'at least one backend must carry traffic',
          fieldPath: '.backends',
        },
        {
          rule: '!oldSelf.hasValue() || !has(oldSelf.value().hostnames) || has(self.hostnames)',
          optionalOldSelf: true,
          message: 'hostnames may not be removed once set',
        },
      ],
    },
  },
};

const root = 'spec.versions[0].schema.openAPIV3Schema';

describe('a route-like CRD', () => {
  it('compiles within kube budgets', () =>
    assert.deepEqual(compileSchemaRules(route, root).map(formatFieldError), []));

  const validator = compileValidator(route)!;
  const object = (spec: Record<string, unknown>) => ({
    apiVersion: 'example.io/v1',
    kind: 'Route',
    metadata: { name: 'r' },
    spec: { className: 'a', ...spec },
  });
  const validate = (spec: Record<string, unknown>, old?: Record<string, unknown>) =>
    validator.validate(object(spec), old && object(old)).map(formatFieldError);

  const good = {
    hostnames: ['*.example.com', 'example.com'],
    backends: [
      { name: 'a', port: 80, weight: 1 },
      { name: 'b', port: 80, weight: 0 },
    ],
    rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/api' } }], timeout: '30s' }],
  };

  it('accepts a valid object', () => assert.deepEqual(validate(good), []));

  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'a bad hostname',
      { ...good, hostnames: ['Example.com'] },
      [
        'spec.hostnames: Invalid value: "array": hostnames must be DNS names, optionally with a leading wildcard',
      ],
    ],
    [
      'a relative path',
      { ...good, rules: [{ matches: [{ path: { type: 'Exact', value: 'api' } }] }] },
      [
        `spec.rules[0].matches[0].path: Invalid value: "object": value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']`,
      ],
    ],
    [
      'a long timeout, reported at its field',
      { ...good, rules: [{ name: 'slow', timeout: '2h' }] },
      ['spec.rules[0].timeout: Invalid value: "object": rule slow has a timeout over 1h'],
    ],
    [
      'no weighted backend',
      { ...good, backends: [{ name: 'a', weight: 0 }] },
      ['spec.backends: Invalid value: "object": at least one backend must carry traffic'],
    ],
  ];
  for (const [name, spec, want] of cases) it(`refuses ${name}`, () => assert.deepEqual(validate(spec), want));

  it('checks transitions on update', () => {
    assert.deepEqual(validate(good, good), []);
    assert.deepEqual(validate({ ...good, className: 'b' }, good), [
      'spec: Invalid value: "object": className is immutable',
    ]);
    const { hostnames: _, ...withoutHostnames } = good;
    assert.deepEqual(validate(withoutHostnames, good), [
      'spec: Invalid value: "object": hostnames may not be removed once set',
    ]);
    const lighter = {
      ...good,
      backends: [
        { name: 'b', port: 80, weight: 0 },
        { name: 'a', port: 80, weight: 0 },
      ],
    };
    // the object's own rules run before its items'; backend a lost weight, found by name after it moved
    assert.deepEqual(validate(lighter, good), [
      'spec.backends: Invalid value: "object": at least one backend must carry traffic',
      'spec.backends[1]: Forbidden: a backend weight may not decrease',
    ]);
  });

  it('ratchets an invalid value left unchanged', () => {
    const legacy = { ...good, hostnames: ['Legacy.example.com'] };
    const warnings: string[] = [];
    assert.deepEqual(validator.validate(object(legacy), object(legacy), { warnings }), []);
    assert.equal(warnings.length, 1);
  });
});
