import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema } from '../api/index.js';
import { applyDefaults, hasDefaults, validateDefault } from './defaults.js';

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'fast' },
        note: { type: 'string', nullable: true, default: 'n' },
        none: { type: 'string', default: null },
        config: {
          type: 'object',
          default: { level: 'info' },
          properties: { level: { type: 'string' }, depth: { type: 'integer', default: 3 } },
        },
        limits: { type: 'object', additionalProperties: { type: 'integer', default: 10 } },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name', 'protocol'],
          items: {
            type: 'object',
            default: { name: 'http' },
            properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } },
          },
        },
      },
    },
  },
};

describe('applyDefaults', () => {
  it('fills missing properties, then defaults inside what it set', () => {
    assert.deepEqual(applyDefaults(schema, {}), {
      spec: { replicas: 1, mode: 'fast', note: 'n', config: { level: 'info', depth: 3 } },
    });
  });

  it('replaces a null that may not be null, keeps a nullable one', () => {
    const out = applyDefaults(schema, { spec: { mode: null, note: null, replicas: 5 } });
    assert.deepEqual(out, {
      spec: { mode: 'fast', note: null, replicas: 5, config: { level: 'info', depth: 3 } },
    });
  });

  it('defaults map values and list items only where they are null, and list-map keys inside items', () => {
    const out = applyDefaults(schema, { spec: { limits: { a: null, b: 2 }, ports: [null, { name: 'x' }] } });
    const spec = (out as { spec: Record<string, unknown> }).spec;
    assert.deepEqual(spec.limits, { a: 10, b: 2 });
    assert.deepEqual(spec.ports, [
      { name: 'http', protocol: 'TCP' },
      { name: 'x', protocol: 'TCP' },
    ]);
  });

  it('copies defaults: changing one object does not change the schema or another object', () => {
    const a = applyDefaults(schema, {}) as { spec: { config: { level: string } } };
    a.spec.config.level = 'debug';
    const b = applyDefaults(schema, {}) as { spec: { config: { level: string } } };
    assert.equal(b.spec.config.level, 'info');
  });

  it('hasDefaults', () => {
    assert.equal(hasDefaults(schema), true);
    assert.equal(hasDefaults({ type: 'object', properties: { a: { type: 'string' } } }), false);
  });
});

describe('validateDefault', () => {
  const at = 'spec.validation.openAPIV3Schema.properties[spec]';
  const check = (s: Schema): string[] => validateDefault(s, at).map(formatFieldError);

  it('accepts a valid, pruned default', () => {
    assert.deepEqual(
      check({ type: 'object', properties: { a: { type: 'integer' } }, default: { a: 1 } }),
      [],
    );
  });

  it('refuses unknown fields', () => {
    assert.deepEqual(
      check({ type: 'object', properties: { a: { type: 'integer' } }, default: { a: 1, b: 2 } }),
      [`${at}.default: Invalid value: map[string]interface {}{"a":1, "b":2}: must not have unknown fields`],
    );
  });

  it('refuses a value its schema refuses, named as kube names it', () => {
    assert.deepEqual(check({ type: 'integer', default: 'x' }), [
      `${at}.default: Invalid value: "string":  in body must be of type integer: "string"`,
    ]);
    assert.deepEqual(
      check({ type: 'object', properties: { a: { type: 'integer', maximum: 1 } }, default: { a: 2 } }),
      [`${at}.default.a: Invalid value: 2: a in body should be less than or equal to 1`],
    );
  });

  it('leaves metadata to the metadata checks, as kube prunes defaults', () => {
    const s: Schema = {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', odd: 1 } },
    };
    assert.deepEqual(check(s), []);
  });

  it('checks an embedded resource default as a resource', () => {
    const errs = check({ type: 'object', 'x-kubernetes-embedded-resource': true, default: { kind: 'Pod' } });
    assert.deepEqual(errs, [`${at}.default.apiVersion: Required value: must not be empty`]);
  });
});
