import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type Schema } from '../api/index.js';
import { blockingError, validateCustomResource, validateCustomResourceStatus } from './custom-resource.js';
import { correlate } from './correlate.js';
import { decodeObject } from './decode.js';
import { applyDefaults } from './defaults.js';

const schema: Schema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } },
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer', minimum: 1 },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};
const base = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };

describe('validateCustomResource', () => {
  it('schema errors, then embedded resources, then list types', () => {
    const obj = { ...base, spec: { size: 0, tags: ['a', 'a'], template: { kind: 'Pod' } } };
    assert.deepEqual(validateCustomResource(schema, obj).map(formatFieldError), [
      'spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.tags[1]: Duplicate value: "a"',
    ]);
  });

  it("checks the metadata name against the schema's restrictions", () => {
    const obj = { ...base, metadata: { name: 'toolong' } };
    assert.deepEqual(validateCustomResource(schema, obj).map(formatFieldError), [
      'metadata.name: Too long: may not be more than 5 bytes',
    ]);
  });

  it('on update: ratchets unchanged values and list types the old object already broke', () => {
    const old = { ...base, spec: { size: 0, tags: ['a', 'a'] } };
    const obj = { ...base, spec: { size: 0, tags: ['a', 'a', 'b'] } };
    assert.deepEqual(validateCustomResource(schema, obj, { old }), []);
    assert.deepEqual(validateCustomResource(schema, obj, { correlation: correlate(obj, old, schema) }), []);
  });

  it('the status subresource: status alone, under status', () => {
    const obj = { ...base, status: { ready: 'yes' } };
    assert.deepEqual(validateCustomResourceStatus(schema, obj, base).map(formatFieldError), [
      'status.ready: Invalid value: "string": ready in body must be of type boolean: "string"',
    ]);
  });

  it('blockingError: kube skips CEL after these error types', () => {
    assert.equal(blockingError([{ type: 'Invalid', field: 'x', value: 1 }]), undefined);
    const e = blockingError([{ type: 'Required', field: 'x' }]);
    assert.equal(
      e && formatFieldError(e),
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    );
  });
});

describe('a custom resource on its way through: decode, default, validate', () => {
  it('prunes, defaults and reports as kube does', () => {
    const withDefaults: Schema = structuredClone(schema);
    withDefaults.properties!.spec.properties!.size.default = 1;
    const body = { ...base, spec: { bogus: true, tags: ['a'] } };
    const { object, unknownFields } = decodeObject(body, withDefaults, {
      kind: 'Widget',
      version: 'v1',
      customResource: true,
    });
    assert.deepEqual(unknownFields, ['spec.bogus']);
    applyDefaults(withDefaults, object);
    assert.deepEqual(object, { ...base, spec: { size: 1, tags: ['a'] } });
    assert.deepEqual(validateCustomResource(withDefaults, object), []);
  });
});
