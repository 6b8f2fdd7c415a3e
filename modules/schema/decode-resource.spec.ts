import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiError, Schema } from '../api/index.js';
import { decodeObject } from './decode.js';
import { widgetSchema } from './spec-schemas.js';

const decode = (obj: unknown, schema: Schema = widgetSchema) =>
  decodeObject(obj, schema, { kind: 'Widget', version: 'v1', customResource: true });

describe("decodeObject: customResource (kube's decoding of custom resources)", () => {
  it("prunes, reports paths sorted after the root metadata's, and keeps wrong types for validation", () => {
    const obj = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', zz: 1, anything: 1 },
      zextra: true,
      spec: {
        replicas: 'three',
        bogus: 1,
        items: [{ name: 'a' }, { name: 'b', bogus: 2 }],
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', odd: 1 },
          spec: { size: 1, bogus: 3 },
        },
      },
    };
    const { object, unknownFields } = decode(obj);
    assert.deepEqual(unknownFields, [
      'metadata.zz',
      'metadata.anything',
      'spec.bogus',
      'spec.items[1].bogus',
      'spec.template.spec.bogus',
      'zextra',
      'spec.template.metadata.odd',
    ]);
    assert.deepEqual(object, {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: {
        replicas: 'three',
        items: [{ name: 'a' }, { name: 'b' }],
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { size: 1 } },
      },
    });
  });

  it('keeps apiVersion, kind and metadata of the root even when the schema does not declare them', () => {
    const schema: Schema = { type: 'object', properties: { spec: { type: 'object' } } };
    const { object, unknownFields } = decode(
      { apiVersion: 'a/v1', kind: 'W', metadata: { name: 'x' } },
      schema,
    );
    assert.deepEqual(unknownFields, []);
    assert.deepEqual(object, { apiVersion: 'a/v1', kind: 'W', metadata: { name: 'x' } });
  });

  it('leaves out empty metadata fields as Go writes an ObjectMeta', () => {
    const { object } = decode({
      metadata: { name: 'w', namespace: '', labels: {}, finalizers: [], generation: 0 },
    });
    assert.deepEqual(object, { metadata: { name: 'w' } });
  });

  it("refuses metadata of the wrong type with Go's message", () => {
    assert.throws(
      () => decode({ metadata: { labels: 'x' } }),
      (e: ApiError) =>
        e.code === 400 &&
        e.message ===
          'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
    );
  });

  it("refuses an embedded resource's bad metadata or non-string kind as a field error", () => {
    assert.throws(
      () => decode({ spec: { template: { metadata: { labels: 'x' } } } }),
      (e: ApiError) =>
        e.message ===
        'Widget in version "v1" cannot be handled as a Widget: spec.template.metadata: Invalid value: map[string]interface {}{"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
    );
    assert.throws(
      () => decode({ spec: { template: { kind: 1 } } }),
      (e: ApiError) =>
        e.message ===
        'Widget in version "v1" cannot be handled as a Widget: spec.template.kind: Invalid value: 1: must be a string',
    );
  });

  it('drops null map values that may not be null and have no default', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        a: { type: 'object', additionalProperties: { type: 'string' } },
        b: { type: 'object', additionalProperties: { type: 'string', nullable: true } },
        c: { type: 'object', additionalProperties: { type: 'string', default: 'x' } },
      },
    };
    const { object } = decode({ a: { k: null }, b: { k: null }, c: { k: null } }, schema);
    assert.deepEqual(object, { a: {}, b: { k: null }, c: { k: null } });
  });

  it('decodes the metadata of an opaque embedded resource (preserve-unknown-fields) too', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            manifest: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              'x-kubernetes-preserve-unknown-fields': true,
            },
          },
        },
      },
    };
    const { object, unknownFields } = decode(
      {
        spec: {
          manifest: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'c', junk: 1 },
            data: { a: 'b' },
          },
        },
      },
      schema,
    );
    assert.deepEqual(unknownFields, ['spec.manifest.metadata.junk']);
    assert.deepEqual(object, {
      spec: { manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } } },
    });
  });

  it('keeps unknown fields in the items of a list marked preserve-unknown-fields, as kube pruning does', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          'x-kubernetes-preserve-unknown-fields': true,
          items: {
            type: 'object',
            properties: { a: { type: 'object', properties: { b: { type: 'string' } } } },
          },
        },
      },
    };
    const { object, unknownFields } = decode({ list: [{ x: 1, a: { b: 'y', c: 2 } }] }, schema);
    assert.deepEqual(unknownFields, ['list[0].a.c']);
    assert.deepEqual(object, { list: [{ x: 1, a: { b: 'y' } }] });
  });
});
