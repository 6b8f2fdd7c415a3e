import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../api/index.js';
import { configMapDefinition } from '../../kinds/index.js';
import type { JsonObject } from '../managed-fields/json-value.js';
import { recordUpdate } from '../managed-fields/update.js';
import { apply } from './apply.js';
import { lastAppliedAnnotation } from './last-applied.js';

const schema = configMapDefinition.schema;
const T1 = '2024-01-01T00:00:00Z';
const T2 = '2024-01-02T00:00:00Z';

const cm = (data: Record<string, string>, annotations?: Record<string, string>): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  data,
});

/** What `kubectl apply` (client-side) leaves behind for data `{k: v}`, later changed to `live`. */
function clientSideApplied(live: Record<string, string>): JsonObject {
  const lastApplied =
    '{"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"name":"cm","namespace":"ns"}}\n';
  const created = cm({ k: 'v' }, { [lastAppliedAnnotation]: lastApplied });
  let managedFields = recordUpdate(undefined, created, 'kubectl-client-side-apply', schema, {
    apiVersion: 'v1',
    now: T1,
  });
  let obj: JsonObject = {
    ...created,
    metadata: { ...(created.metadata as JsonObject), uid: 'u', managedFields },
  };
  if (live.k !== 'v') {
    const next: JsonObject = { ...obj, data: live };
    managedFields = recordUpdate(obj, next, 'kubectl-client-side-apply', schema, {
      apiVersion: 'v1',
      now: T1,
    });
    obj = { ...next, metadata: { ...(next.metadata as JsonObject), managedFields } };
  }
  return obj;
}

const annotation = (obj: JsonObject): unknown =>
  ((obj.metadata as JsonObject).annotations as JsonObject | undefined)?.[lastAppliedAnnotation];

describe('apply: moving from client-side to server-side apply', () => {
  it('lets "kubectl" take over fields the annotation vouches for, and rewrites the annotation', () => {
    const out = apply(clientSideApplied({ k: 'v' }), cm({ k: 'w' }), 'kubectl', schema, { now: T2 });
    assert.deepEqual(out.object.data, { k: 'w' });
    assert.equal(
      annotation(out.object),
      '{"apiVersion":"v1","data":{"k":"w"},"kind":"ConfigMap","metadata":{"name":"cm","namespace":"ns"}}\n',
    );
    assert.deepEqual(
      out.managedFields.map((e) => [e.manager, e.fieldsV1]),
      [
        ['kubectl', { 'f:data': { 'f:k': {} } }],
        [
          'kubectl-client-side-apply',
          {
            'f:data': {},
            'f:metadata': { 'f:annotations': { '.': {}, [`f:${lastAppliedAnnotation}`]: {} } },
          },
        ],
      ],
    );
  });

  it('still conflicts on fields changed since the annotation was written', () => {
    const live = clientSideApplied({ k: 'edited' });
    assert.throws(
      () => apply(live, cm({ k: 'w' }), 'kubectl', schema, { now: T2 }),
      (err: unknown) =>
        err instanceof ApiError &&
        err.message ===
          'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.k',
    );
  });

  it('does this for the manager "kubectl" only', () => {
    assert.throws(
      () => apply(clientSideApplied({ k: 'v' }), cm({ k: 'w' }), 'other', schema, { now: T2 }),
      (err: unknown) => err instanceof ApiError && err.code === 409,
    );
  });

  it('records the configuration without its own copy of the annotation', () => {
    const config = cm({ k: 'v' }, { [lastAppliedAnnotation]: 'stale', team: 'a' });
    const out = apply(clientSideApplied({ k: 'v' }), config, 'kubectl', schema, { now: T2, force: true });
    assert.equal(
      annotation(out.object),
      '{"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"annotations":{"team":"a"},"name":"cm","namespace":"ns"}}\n',
    );
  });

  it('never adds the annotation to an object that does not have it', () => {
    const out = apply(undefined, cm({ k: 'v' }), 'kubectl', schema, { now: T1 });
    assert.equal(annotation(out.object), undefined);
  });
});
