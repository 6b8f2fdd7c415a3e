import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMapDefinition } from '../../kinds/index.js';
import { encodeManagedFields } from './entries.js';
import { FieldSet } from './field-set.js';
import { makePath } from './path-element.js';
import { gadgetSchema, widget, widgetApiVersion, widgetSchema } from '../../../test/support/apply-schemas.js';
import { recordUpdate, trackUpdate, type ObjectLike, type WriteOptions } from './update.js';

const T = '2024-01-01T00:00:00Z';

/** What a create records when computed the long way, without the per-shape reuse. */
function longWay(obj: ObjectLike, schema: typeof widgetSchema, opts: WriteOptions, manager = 'm') {
  return encodeManagedFields(trackUpdate({}, obj, new Map(), manager, schema, opts));
}

// pairs that share keys but differ in what ownership depends on: value types, list items, null vs object
const widgets = [
  widget({ replicas: 1, tags: ['a', 'b'] }),
  widget({ replicas: 2, tags: ['a', 'c'] }),
  widget({ ports: [{ port: 80, protocol: 'TCP' }] }),
  widget({ ports: [{ port: 81, protocol: 'UDP' }] }),
  widget({ containers: [{ name: 'a', image: 'x' }] }),
  widget({ containers: [{ name: 'b', image: 'x' }] }),
  widget({ extra: { a: 'text' } }),
  widget({ extra: { a: { b: 1 } } }),
  widget({ extra: { a: [1, 2] } }),
  widget({ extra: { a: null } }),
  widget({ env: {} }),
  widget({ env: { A: '1' } }),
  widget({ strategy: null }),
  widget({ strategy: { type: 'x' } }),
  widget({ replicas: 1 }, { labels: { app: 'a' } }),
  widget({ replicas: 1 }, { labels: { app: 'a' }, managedFields: [] }),
];

describe('managedFields of a create, reused per shape', () => {
  it('equal what the full comparison records, for objects alike and unlike, seen once or again', () => {
    const opts = { apiVersion: widgetApiVersion, now: T };
    for (let round = 0; round < 2; round++) {
      for (const obj of widgets) {
        assert.deepEqual(
          recordUpdate(undefined, obj, 'm', widgetSchema, opts),
          longWay(obj, widgetSchema, opts),
        );
      }
    }
  });

  it('keep built-in kinds zero structs, managers, versions, subresources and ignored fields apart', () => {
    const gadget = { apiVersion: 'v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { replicas: 1 } };
    const cases: Array<[string, WriteOptions]> = [
      ['m', { apiVersion: 'v1', now: T }],
      ['other', { apiVersion: 'v1', now: T }],
      ['m', { apiVersion: 'v2', now: T }],
      ['m', { apiVersion: 'v1', now: T, subresource: 'status' }],
      ['m', { apiVersion: 'v1', now: T, ignoredFields: FieldSet.of(makePath('spec', 'replicas')) }],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [manager, opts] of cases) {
        assert.deepEqual(
          recordUpdate(undefined, gadget, manager, gadgetSchema, opts),
          longWay(gadget, gadgetSchema, opts, manager),
        );
      }
    }
  });

  it('stamp each create with its own time and give it its own fieldsV1', () => {
    const schema = configMapDefinition.schema;
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } };
    const first = recordUpdate(undefined, cm, 'm', schema, { apiVersion: 'v1', now: T });
    const second = recordUpdate(undefined, cm, 'm', schema, {
      apiVersion: 'v1',
      now: '2025-01-01T00:00:00Z',
    });
    assert.equal(first[0].time, T);
    assert.equal(second[0].time, '2025-01-01T00:00:00Z');
    assert.deepEqual(second[0].fieldsV1, { 'f:data': { '.': {}, 'f:k': {} } });
    assert.notEqual(first[0].fieldsV1, second[0].fieldsV1);
    assert.deepEqual(Object.keys(second[0]), [
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
    ]);
  });
});
