import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../api/index.js';
import { configMapDefinition } from '../../kinds/index.js';
import type { JsonObject } from '../managed-fields/json-value.js';
import { apply, type ApplyOptions } from './apply.js';

const cm = (extra: JsonObject = {}, metadata: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', ...metadata },
  data: { k: 'v' },
  ...extra,
});

function failure(live: JsonObject | undefined, config: JsonObject, opts: ApplyOptions = {}) {
  try {
    apply(live, config, 'mgr', configMapDefinition.schema, opts);
  } catch (err) {
    if (err instanceof ApiError) return err.toStatus();
    throw err;
  }
  return assert.fail('expected an error');
}

describe('apply: rejected requests', () => {
  it('400 for managedFields in the configuration, even an empty list', () => {
    const status = failure(undefined, cm({}, { managedFields: [] }));
    assert.deepEqual(
      { code: status.code, reason: status.reason, message: status.message },
      { code: 400, reason: 'BadRequest', message: 'metadata.managedFields must be nil' },
    );
  });

  it('accepts managedFields: null', () => {
    const out = apply(undefined, cm({}, { managedFields: null }), 'mgr', configMapDefinition.schema, {});
    assert.equal(out.managedFields.length, 1);
  });

  const wrongType: Array<[string, JsonObject, string]> = [
    ['another kind', cm({ kind: 'Secret' }), 'invalid object type: /v1, Kind=Secret'],
    ['another version', cm({ apiVersion: 'apps/v1' }), 'invalid object type: apps/v1, Kind=ConfigMap'],
    ['no type at all', cm({ apiVersion: undefined, kind: undefined }), 'invalid object type: /, Kind='],
  ];
  for (const [name, config, message] of wrongType) {
    it(`400 for ${name} than the request serves`, () => {
      const status = failure(undefined, config, { apiVersion: 'v1', kind: 'ConfigMap' });
      assert.deepEqual([status.code, status.reason, status.message], [400, 'BadRequest', message]);
    });
  }

  const untyped: Array<[string, JsonObject, string]> = [
    ['an unknown field', cm({ spec: {} }), '.spec: field not declared in schema'],
    ['a value of the wrong type', cm({ data: { k: 1 } }), '.data.k: expected string, got &{1}'],
    [
      'an unknown metadata field',
      cm({}, { colour: 'red' }),
      '.metadata.colour: field not declared in schema',
    ],
  ];
  for (const [name, config, detail] of untyped) {
    it(`500 like kube's typed conversion for ${name}`, () => {
      const status = failure(undefined, config);
      assert.deepEqual(status, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `failed to create typed patch object (ns/cm; /v1, Kind=ConfigMap): ${detail}`,
        code: 500,
      });
    });
  }

  it('500 when the stored managedFields cannot be read', () => {
    const live = cm({}, { managedFields: [{ manager: 'x', operation: 'Patch' }] });
    const status = failure(live, cm());
    assert.deepEqual(
      [status.code, status.message],
      [500, 'failed to decode managed fields: operation must be `Apply` or `Update`'],
    );
  });
});
