import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiError } from '../api/index.js';
import { decodeObject, maxNesting } from './decode.js';
import {
  configMapSchema,
  cyclicSchema,
  deploymentSchema,
  secretSchema,
  widgetSchema,
} from './spec-schemas.js';

const clone = <T>(v: T): T => structuredClone(v);

const deployment = (spec: unknown): unknown => ({ apiVersion: 'apps/v1', kind: 'Deployment', spec });
const podSpec = (spec: unknown): unknown => deployment({ template: { spec } });

describe('decodeObject: pruning', () => {
  it('leaves a valid object untouched and reports nothing', () => {
    const obj = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' }, creationTimestamp: '2024-01-02T03:04:05Z' },
      spec: {
        replicas: 2,
        template: { spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] } },
      },
    };
    const before = clone(obj);
    const { object, unknownFields } = decodeObject(obj, deploymentSchema, { kind: 'Deployment' });
    assert.equal(object, obj);
    assert.deepEqual(object, before);
    assert.deepEqual(unknownFields, []);
  });

  it('drops unknown fields at every level and names them as kube does', () => {
    const obj = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      unknownTop: 1,
      metadata: { name: 'web', unknownMeta: 'x' },
      spec: {
        replicas: 2,
        unknownSpec: { deep: true },
        template: {
          spec: {
            containers: [
              { name: 'a', image: 'i', unknownNested: 'foo' },
              { name: 'b', ports: [{ containerPort: 80, bogus: 1 }] },
            ],
            volumesByName: { data: { path: '/d', extra: 1 } },
          },
        },
      },
    };
    const { object, unknownFields } = decodeObject(obj, deploymentSchema, { kind: 'Deployment' });
    assert.deepEqual(unknownFields, [
      'unknownTop',
      'metadata.unknownMeta',
      'spec.unknownSpec',
      'spec.template.spec.containers[0].unknownNested',
      'spec.template.spec.containers[1].ports[0].bogus',
      'spec.template.spec.volumesByName.data.extra',
    ]);
    assert.deepEqual(object, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        template: {
          spec: {
            containers: [
              { name: 'a', image: 'i' },
              { name: 'b', ports: [{ containerPort: 80 }] },
            ],
            volumesByName: { data: { path: '/d' } },
          },
        },
      },
    });
  });

  it('keeps everything under preserve-unknown-fields and additionalProperties: true', () => {
    const obj = {
      metadata: { managedFields: [{ manager: 'm', fieldsV1: { 'f:data': { 'f:a': {} } }, extra: 1 }] },
    };
    const { object, unknownFields } = decodeObject(obj, configMapSchema, { kind: 'ConfigMap' });
    assert.deepEqual(unknownFields, ['metadata.managedFields[0].extra']);
    assert.deepEqual(object, {
      metadata: { managedFields: [{ manager: 'm', fieldsV1: { 'f:data': { 'f:a': {} } } }] },
    });
  });

  it('does not treat inherited names as declared properties', () => {
    const obj = { constructor: 1, toString: 'x', data: { constructor: 'ok' } };
    const { object, unknownFields } = decodeObject(obj, configMapSchema, { kind: 'ConfigMap' });
    assert.deepEqual(unknownFields, ['constructor', 'toString']);
    assert.deepEqual(object, { data: { constructor: 'ok' } });
  });

  it('reports at most 100 unknown fields but drops them all', () => {
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < 150; i++) obj[`x${i}`] = i;
    const { object, unknownFields } = decodeObject(obj, configMapSchema, { kind: 'ConfigMap' });
    assert.equal(unknownFields.length, 100);
    assert.deepEqual(object, {});
  });

  it('handles self-referencing schemas', () => {
    const obj = { schema: { type: 'object', properties: { a: { type: 'string', x: 1 } }, items: { y: 2 } } };
    const { unknownFields } = decodeObject(obj, cyclicSchema(), { kind: 'Thing' });
    assert.deepEqual(unknownFields, ['schema.properties.a.x', 'schema.items.y']);
  });
});

describe('decodeObject: null', () => {
  it('unsets fields, and leaves the zero value in maps and lists as Go does', () => {
    const obj = {
      metadata: { name: null, labels: { a: null }, finalizers: ['x', null] },
      data: { k: null, v: 'x' },
      immutable: null,
    };
    const { object } = decodeObject(obj, configMapSchema, { kind: 'ConfigMap' });
    assert.deepEqual(object, {
      metadata: { labels: { a: '' }, finalizers: ['x', ''] },
      data: { k: '', v: 'x' },
    });
  });

  it('zero values by element type', () => {
    const dep = podSpec({ containers: [null, { name: 'a', resources: { limits: { cpu: null } } }] });
    decodeObject(dep, deploymentSchema, { kind: 'Deployment' });
    assert.deepEqual(dep, podSpec({ containers: [{}, { name: 'a', resources: { limits: { cpu: '0' } } }] }));
    const secret = { data: { a: null } };
    decodeObject(secret, secretSchema, { kind: 'Secret' });
    assert.deepEqual(secret, { data: { a: null } });
  });

  it('untyped: nullable fields keep null, others are removed, maps and lists are left alone', () => {
    const obj = { spec: { note: null, replicas: null, sizes: { a: null }, items: [null] } };
    decodeObject(obj, widgetSchema, { kind: 'Widget', typed: false });
    assert.deepEqual(obj, { spec: { note: null, sizes: { a: null }, items: [null] } });
  });
});

describe('decodeObject: untyped (custom resources)', () => {
  it('prunes but leaves type errors to validation', () => {
    const obj = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', anything: 1 },
      extra: true,
      spec: {
        replicas: 'three',
        bogus: 1,
        config: { free: { form: 1 } },
        anything: [1, 'two'],
        loose: { a: { b: 1 } },
        items: [{ name: 'a' }, { name: 'b', bogus: 2 }],
        sizes: { a: 'not-an-int' },
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p' },
          spec: { size: 1, bogus: 3 },
          status: {},
        },
      },
    };
    const { object, unknownFields } = decodeObject(obj, widgetSchema, { kind: 'Widget', typed: false });
    assert.deepEqual(unknownFields, [
      'extra',
      'spec.bogus',
      'spec.items[1].bogus',
      'spec.template.spec.bogus',
      'spec.template.status',
    ]);
    assert.deepEqual(object, {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', anything: 1 },
      spec: {
        replicas: 'three',
        config: { free: { form: 1 } },
        anything: [1, 'two'],
        loose: { a: { b: 1 } },
        items: [{ name: 'a' }, { name: 'b' }],
        sizes: { a: 'not-an-int' },
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { size: 1 } },
      },
    });
  });
});

describe('decodeObject: free-form values nest only as deep as the server can store', () => {
  const nested = (depth: number): unknown => {
    let v: unknown = {};
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };
  const withFields = (fieldsV1: unknown) => ({ metadata: { managedFields: [{ manager: 'm', fieldsV1 }] } });

  it('keeps a free-form value a few hundred levels deep', () => {
    const obj = withFields(nested(500));
    assert.equal(decodeObject(obj, configMapSchema, { kind: 'ConfigMap' }).object, obj);
  });

  it('refuses one past maxNesting with 400 (kube: exceeded max depth), before anything copies it', () => {
    assert.throws(
      () =>
        decodeObject(withFields(nested(maxNesting)), configMapSchema, { kind: 'ConfigMap', version: 'v1' }),
      (e: ApiError) =>
        e.code === 400 &&
        e.message === 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: exceeded max depth',
    );
  });
});
