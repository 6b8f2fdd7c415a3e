import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMapDefinition } from '../../kinds/index.js';
import { leaseDefinition } from '../../kinds/index.js';
import type { JsonObject } from '../managed-fields/json-value.js';
import { FieldSet } from '../managed-fields/field-set.js';
import { makePath } from '../managed-fields/path-element.js';
import { widget, widgetSchema } from '../../../test/support/apply-schemas.js';
import { recordUpdate } from '../managed-fields/update.js';
import { apply, type ApplyOptions } from './apply.js';
import { entry, errorOf, T1, T2, T3 } from '../../../test/support/apply-helpers.js';

const cmSchema = configMapDefinition.schema;
const conflictOf = errorOf;

const cm = (data: Record<string, string>, labels?: Record<string, string>): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', ...(labels ? { labels } : {}) },
  data,
});

const applyCm = (
  live: JsonObject | undefined,
  config: JsonObject,
  manager: string,
  opts: ApplyOptions = {},
) => apply(live, config, manager, cmSchema, { now: T2, ...opts });

/** A ConfigMap created by `kubectl create` (an Update manager) at T1. */
function createdByUpdate(data: Record<string, string>, labels?: Record<string, string>): JsonObject {
  const obj = cm(data, labels);
  const managedFields = recordUpdate(undefined, obj, 'kubectl-create', cmSchema, {
    apiVersion: 'v1',
    now: T1,
  });
  return { ...obj, metadata: { ...(obj.metadata as JsonObject), uid: 'u1', managedFields } };
}

describe('apply: create', () => {
  const created = apply(undefined, cm({ k: 'v' }, { app: 'a' }), 'kubectl', cmSchema, { now: T1 });

  it('creates the configuration, owned by the applier without "." entries', () => {
    assert.deepEqual(created.managedFields, [
      entry('kubectl', 'Apply', T1, {
        'f:data': { 'f:k': {} },
        'f:metadata': { 'f:labels': { 'f:app': {} } },
      }),
    ]);
    assert.deepEqual(created.object, {
      ...cm({ k: 'v' }, { app: 'a' }),
      metadata: { name: 'cm', namespace: 'ns', labels: { app: 'a' }, managedFields: created.managedFields },
    });
    assert.equal(created.changed, true);
  });

  it('re-applying the same configuration changes nothing, not even the time', () => {
    const again = applyCm(created.object, cm({ k: 'v' }, { app: 'a' }), 'kubectl', { now: T3 });
    assert.equal(again.changed, false);
    assert.deepEqual(again.managedFields, created.managedFields);
  });

  it('creates a Lease (a built-in kind) the same way', () => {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { holderIdentity: 'a' },
    };
    const out = apply(undefined, lease, 'leader', leaseDefinition.schema, { now: T1 });
    assert.deepEqual(out.managedFields, [
      entry(
        'leader',
        'Apply',
        T1,
        { 'f:spec': { 'f:holderIdentity': {} } },
        { apiVersion: 'coordination.k8s.io/v1' },
      ),
    ]);
  });
});

describe('apply: ownership', () => {
  const first = applyCm(undefined, cm({ k: 'v', j: '1' }), 'one', { now: T1 });

  it('shares fields applied with the same value (the sharer gets no time: nothing changed)', () => {
    const out = applyCm(first.object, cm({ k: 'v' }), 'two');
    assert.equal(out.changed, false);
    assert.deepEqual(out.managedFields, [
      entry('two', 'Apply', undefined, { 'f:data': { 'f:k': {} } }),
      entry('one', 'Apply', T1, { 'f:data': { 'f:j': {}, 'f:k': {} } }),
    ]);
  });

  it('keeps a shared field when one applier drops it, and removes an unshared one', () => {
    const shared = applyCm(first.object, cm({ k: 'v' }), 'two');
    const out = applyCm(shared.object, cm({ x: 'new' }), 'one', { now: T3 });
    assert.deepEqual(out.object.data, { k: 'v', x: 'new' });
    assert.deepEqual(out.managedFields, [
      entry('two', 'Apply', undefined, { 'f:data': { 'f:k': {} } }),
      entry('one', 'Apply', T3, { 'f:data': { 'f:x': {} } }),
    ]);
  });

  it('leaves a dropped field to the updater that changed it since', () => {
    const updated: JsonObject = { ...first.object, data: { k: 'changed', j: '1' } };
    const managedFields = recordUpdate(first.object, updated, 'controller', cmSchema, {
      apiVersion: 'v1',
      now: T2,
    });
    const live = { ...updated, metadata: { ...(updated.metadata as JsonObject), managedFields } };
    const out = applyCm(live, cm({ j: '1' }), 'one', { now: T3 });
    assert.deepEqual(out.object.data, { k: 'changed', j: '1' });
    assert.deepEqual(out.managedFields, [
      entry('one', 'Apply', T1, { 'f:data': { 'f:j': {} } }),
      entry('controller', 'Update', T2, { 'f:data': { 'f:k': {} } }),
    ]);
  });

  it('an update never conflicts: it takes the field from the applier', () => {
    const updated = { ...first.object, data: { k: 'mine', j: '1' } };
    const managedFields = recordUpdate(first.object, updated, 'editor', cmSchema, {
      apiVersion: 'v1',
      now: T2,
    });
    assert.deepEqual(managedFields, [
      entry('one', 'Apply', T1, { 'f:data': { 'f:j': {} } }),
      entry('editor', 'Update', T2, { 'f:data': { 'f:k': {} } }),
    ]);
  });
});

describe('apply: removing what the applier stopped applying', () => {
  const created = applyCm(undefined, cm({ k: 'v' }, { app: 'x', tier: 't' }), 'kubectl', { now: T1 }).object;
  const live: JsonObject = {
    ...created,
    metadata: { ...(created.metadata as JsonObject), uid: 'u', resourceVersion: '7', finalizers: ['f'] },
  };

  it('removes a dropped label and keeps the fields the server or others set', () => {
    const out = applyCm(live, cm({ k: 'v' }, { app: 'x' }), 'kubectl');
    const { managedFields, ...metadata } = out.object.metadata as JsonObject;
    assert.deepEqual(metadata, {
      name: 'cm',
      namespace: 'ns',
      labels: { app: 'x' },
      uid: 'u',
      resourceVersion: '7',
      finalizers: ['f'],
    });
    assert.deepEqual(managedFields, [
      entry('kubectl', 'Apply', T2, {
        'f:data': { 'f:k': {} },
        'f:metadata': { 'f:labels': { 'f:app': {} } },
      }),
    ]);
  });

  it('removes whole maps, and the entry of an applier left owning nothing', () => {
    const out = applyCm(
      live,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } },
      'kubectl',
    );
    assert.deepEqual(out.object, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm', namespace: 'ns', uid: 'u', resourceVersion: '7', finalizers: ['f'] },
    });
    assert.deepEqual(out.managedFields, []);
  });
});

describe('apply: conflicts', () => {
  const live = createdByUpdate({ k: 'v', j: '1' }, { app: 'a' });

  it('fails with one cause when another manager owns a field it changes', () => {
    const err = conflictOf(() => applyCm(live, cm({ k: 'other' }), 'mgr'));
    assert.equal(err.code, 409);
    assert.deepEqual(err.toStatus(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .data.k',
      reason: 'Conflict',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "kubectl-create" using v1',
            field: '.data.k',
          },
        ],
      },
      code: 409,
    });
  });

  it('lists several conflicts by manager', () => {
    const applied = applyCm(live, cm({ x: '1' }, { app: 'a', tier: 'web' }), 'labeler', {
      force: true,
    }).object;
    const err = conflictOf(() => applyCm(applied, cm({ k: '2', j: '2' }, { tier: 'db' }), 'mgr'));
    assert.equal(
      err.message,
      'Apply failed with 3 conflicts: conflicts with "kubectl-create" using v1:\n- .data.j\n- .data.k\n' +
        'conflicts with "labeler":\n- .metadata.labels.tier',
    );
    assert.deepEqual(
      err.details?.causes?.map((c) => `${c.message} ${c.field}`),
      [
        'conflict with "kubectl-create" using v1 .data.j',
        'conflict with "kubectl-create" using v1 .data.k',
        'conflict with "labeler" .metadata.labels.tier',
      ],
    );
  });

  it('names the subresource of the owner', () => {
    const w = apply(undefined, { ...widget({}), status: { phase: 'A' } }, 'kubelet', widgetSchema, {
      now: T1,
      subresource: 'status',
    }).object;
    const err = conflictOf(() =>
      apply(w, { ...widget({}), status: { phase: 'B' } }, 'other', widgetSchema, { now: T2 }),
    );
    assert.equal(
      err.message,
      'Apply failed with 1 conflict: conflict with "kubelet" with subresource "status": .status.phase',
    );
  });

  it('force takes the field over; the old owner keeps only the rest', () => {
    const out = applyCm(live, cm({ k: 'other' }), 'mgr', { force: true });
    assert.deepEqual(out.object.data, { k: 'other', j: '1' });
    assert.deepEqual(out.managedFields, [
      entry('mgr', 'Apply', T2, { 'f:data': { 'f:k': {} } }),
      entry('kubectl-create', 'Update', T1, {
        'f:data': { '.': {}, 'f:j': {} },
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      }),
    ]);
  });

  it('setting the same value shares instead of conflicting', () => {
    const out = applyCm(live, cm({ k: 'v' }), 'mgr');
    assert.deepEqual(out.managedFields[0], entry('mgr', 'Apply', undefined, { 'f:data': { 'f:k': {} } }));
  });

  it('later changes by either sharer conflict with the other', () => {
    const shared = applyCm(live, cm({ k: 'v' }), 'mgr').object;
    const err = conflictOf(() => applyCm(shared, cm({ k: 'new' }), 'mgr'));
    assert.equal(
      err.message,
      'Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .data.k',
    );
  });
});

describe('apply: other paths', () => {
  it('keeps subresource appliers apart from the main resource', () => {
    const main = apply(undefined, widget({ replicas: 1 }), 'ctl', widgetSchema, { now: T1 }).object;
    const out = apply(main, { ...widget({}), status: { phase: 'Ready' } }, 'ctl', widgetSchema, {
      now: T2,
      subresource: 'status',
    });
    assert.deepEqual(
      out.managedFields.map((e) => [e.manager, e.subresource ?? '', e.fieldsV1]),
      [
        ['ctl', '', { 'f:spec': { 'f:replicas': {} } }],
        ['ctl', 'status', { 'f:status': { 'f:phase': {} } }],
      ],
    );
  });

  it('gives nobody the fields the write path resets', () => {
    const out = apply(
      undefined,
      { ...widget({ replicas: 1 }), status: { phase: 'x' } },
      'ctl',
      widgetSchema,
      {
        now: T1,
        ignoredFields: FieldSet.of(makePath('status')),
      },
    );
    assert.deepEqual(out.managedFields[0].fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  });

  it('first records what an untracked object already has as "before-first-apply"', () => {
    const bare = { ...cm({ k: 'v', j: '1' }), metadata: { name: 'cm', namespace: 'ns', uid: 'u' } };
    const out = applyCm(bare, cm({ j: '1' }), 'mgr');
    assert.deepEqual(out.managedFields, [
      entry('mgr', 'Apply', undefined, { 'f:data': { 'f:j': {} } }),
      entry('before-first-apply', 'Update', T2, { 'f:data': { '.': {}, 'f:j': {}, 'f:k': {} } }),
    ]);
    const err = conflictOf(() => applyCm(bare, cm({ k: 'w' }), 'mgr'));
    assert.equal(
      err.message,
      'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.k',
    );
  });
});
