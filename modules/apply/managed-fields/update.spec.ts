import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configMapDefinition } from '../../kinds/index.js';
import { leaseDefinition } from '../../kinds/index.js';
import type { ManagedFieldsEntry } from './entries.js';
import { FieldSet } from './field-set.js';
import { makePath } from './path-element.js';
import { gadgetSchema, widget, widgetApiVersion, widgetSchema } from '../../../test/support/apply-schemas.js';
import { managerName, recordUpdate, type ObjectLike } from './update.js';

const T1 = '2024-01-01T00:00:00Z';
const T2 = '2024-01-02T00:00:00Z';
const cmSchema = configMapDefinition.schema;

const configMap = (
  data: Record<string, string>,
  labels?: Record<string, string>,
  extra: Record<string, unknown> = {},
) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', ...(labels ? { labels } : {}), ...extra },
  data,
});

const withEntries = <T extends ObjectLike>(obj: T, managedFields: unknown): T => ({
  ...obj,
  metadata: { ...obj.metadata, uid: 'uid-1', resourceVersion: '5', managedFields },
});

/** One entry as kube writes it, for the literal expectations below. */
const update = (
  manager: string,
  time: string,
  fieldsV1: unknown,
  more: Partial<ManagedFieldsEntry> = {},
) => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  time,
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...more,
});

const created = recordUpdate(undefined, configMap({ k: 'v' }, { app: 'a' }), 'kubectl-create', cmSchema, {
  apiVersion: 'v1',
  now: T1,
});

describe('recordUpdate: create', () => {
  it('gives the creator every field it set, with "." on the maps it created', () => {
    assert.deepEqual(created, [
      update('kubectl-create', T1, {
        'f:data': { '.': {}, 'f:k': {} },
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      }),
    ]);
  });

  it('leaves out the fields the server owns, but not generateName, annotations or finalizers', () => {
    const obj = configMap({}, undefined, {
      generateName: 'cm-',
      uid: 'u',
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: '2024-01-01T00:00:00Z',
      selfLink: '/x',
      annotations: { a: 'b' },
      finalizers: ['example.com/f'],
    });
    const out = recordUpdate(undefined, obj, 'creator', cmSchema, { apiVersion: 'v1', now: T1 });
    assert.deepEqual(out, [
      update('creator', T1, {
        'f:data': {},
        'f:metadata': {
          'f:annotations': { '.': {}, 'f:a': {} },
          'f:finalizers': { '.': {}, 'v:"example.com/f"': {} },
          'f:generateName': {},
        },
      }),
    ]);
  });

  it('names an anonymous writer "unknown"', () => {
    const out = recordUpdate(undefined, configMap({ k: 'v' }), '', cmSchema, { apiVersion: 'v1', now: T1 });
    assert.equal(out[0].manager, 'unknown');
  });

  it('Lease: a built-in struct exists before its fields are set, so spec has no "."', () => {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l', namespace: 'ns' },
      spec: { holderIdentity: 'a', leaseDurationSeconds: 15 },
    };
    const out = recordUpdate(undefined, lease, 'kube-scheduler', leaseDefinition.schema, {
      apiVersion: 'coordination.k8s.io/v1',
      now: T1,
    });
    assert.deepEqual(out, [
      update(
        'kube-scheduler',
        T1,
        { 'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {} } },
        {
          apiVersion: 'coordination.k8s.io/v1',
        },
      ),
    ]);
  });

  it('a custom resource has no such structs: spec gets "."', () => {
    const out = recordUpdate(undefined, widget({ replicas: 1 }), 'm', widgetSchema, {
      apiVersion: widgetApiVersion,
      now: T1,
    });
    assert.deepEqual(out[0].fieldsV1, { 'f:spec': { '.': {}, 'f:replicas': {} } });
  });

  it('built-in structs inside new list items are owned empty, pointer structs only when set', () => {
    const obj = {
      metadata: { name: 'g' },
      spec: { strategy: { rollingUpdate: { maxSurge: 1 } }, containers: [{ name: 'c', image: 'i' }] },
    };
    const out = recordUpdate(undefined, obj, 'm', gadgetSchema, { apiVersion: 'v1', now: T1 });
    assert.deepEqual(out[0].fieldsV1, {
      'f:spec': {
        'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:resources': {} } },
        'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {} } },
      },
    });
  });
});

describe('recordUpdate: update', () => {
  const live = withEntries(configMap({ k: 'v' }, { app: 'a' }), created);

  it('moves a changed field to the writer; the old owner keeps the rest', () => {
    const out = recordUpdate(live, configMap({ k: 'changed' }, { app: 'a' }), 'editor', cmSchema, {
      apiVersion: 'v1',
      now: T2,
    });
    assert.deepEqual(out, [
      update('kubectl-create', T1, { 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }),
      update('editor', T2, { 'f:data': { 'f:k': {} } }),
    ]);
  });

  it('takes removed fields from every manager and records nothing for the remover', () => {
    const out = recordUpdate(live, configMap({ k: 'v' }), 'editor', cmSchema, { apiVersion: 'v1', now: T2 });
    assert.deepEqual(out, [update('kubectl-create', T1, { 'f:data': { '.': {}, 'f:k': {} } })]);
  });

  it('adds to the writer’s own entry and moves its time', () => {
    const out = recordUpdate(live, configMap({ k: 'v', k2: 'x' }, { app: 'a' }), 'kubectl-create', cmSchema, {
      apiVersion: 'v1',
      now: T2,
    });
    assert.deepEqual(out, [
      update('kubectl-create', T2, {
        'f:data': { '.': {}, 'f:k': {}, 'f:k2': {} },
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      }),
    ]);
  });

  it('changes nothing, not even times, for a write that changes nothing', () => {
    const out = recordUpdate(live, configMap({ k: 'v' }, { app: 'a' }), 'editor', cmSchema, {
      apiVersion: 'v1',
      now: T2,
    });
    assert.deepEqual(out, created);
  });

  it('keeps one entry per API version of an updater', () => {
    const out = recordUpdate(live, configMap({ k: 'w' }, { app: 'a' }), 'kubectl-create', cmSchema, {
      apiVersion: 'v2',
      now: T2,
    });
    assert.deepEqual(
      out.map((e) => [e.apiVersion, e.fieldsV1]),
      [
        ['v1', { 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }],
        ['v2', { 'f:data': { 'f:k': {} } }],
      ],
    );
  });

  it('keeps subresource writers apart and ignores managedFields sent to a subresource', () => {
    const withStatus = withEntries(widget({ replicas: 1 }), [
      update('ctl', T1, { 'f:spec': { '.': {}, 'f:replicas': {} } }, { apiVersion: widgetApiVersion }),
    ]);
    const next = {
      ...withStatus,
      metadata: { ...withStatus.metadata, managedFields: [] },
      status: { phase: 'Ready' },
    };
    const out = recordUpdate(withStatus, next, 'ctl', widgetSchema, {
      apiVersion: widgetApiVersion,
      subresource: 'status',
      now: T2,
    });
    assert.deepEqual(out, [
      update('ctl', T1, { 'f:spec': { '.': {}, 'f:replicas': {} } }, { apiVersion: widgetApiVersion }),
      update(
        'ctl',
        T2,
        { 'f:status': { '.': {}, 'f:phase': {} } },
        { apiVersion: widgetApiVersion, subresource: 'status' },
      ),
    ]);
  });

  it('does not give out fields the write path resets', () => {
    const w = withEntries(widget({ replicas: 1 }), [
      update('ctl', T1, { 'f:spec': { '.': {}, 'f:replicas': {} } }, { apiVersion: widgetApiVersion }),
    ]);
    const out = recordUpdate(
      w,
      { ...w, status: { phase: 'x' }, spec: { replicas: 2 } },
      'other',
      widgetSchema,
      {
        apiVersion: widgetApiVersion,
        now: T2,
        ignoredFields: FieldSet.of(makePath('status')),
      },
    );
    assert.deepEqual(
      out.map((e) => [e.manager, e.fieldsV1]),
      [
        ['ctl', { 'f:spec': {} }],
        ['other', { 'f:spec': { 'f:replicas': {} } }],
      ],
    );
  });

  it('folds the oldest of more than ten updaters into "ancient-changes"', () => {
    const entries = Array.from({ length: 11 }, (_, i) =>
      update(`m${String(i).padStart(2, '0')}`, `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`, {
        'f:data': { [`f:k${i}`]: {} },
      }),
    );
    const data = Object.fromEntries(entries.map((_, i) => [`k${i}`, 'v']));
    const obj = withEntries(configMap(data), entries);
    const out = recordUpdate(obj, configMap({ ...data, new: 'x' }), 'newest', cmSchema, {
      apiVersion: 'v1',
      now: '2024-02-01T00:00:00Z',
    });
    assert.equal(out.length, 10);
    assert.deepEqual(
      out[0],
      update('ancient-changes', '2024-01-03T00:00:00Z', { 'f:data': { 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } }),
    );
    assert.deepEqual(
      out.slice(1).map((e) => e.manager),
      ['m03', 'm04', 'm05', 'm06', 'm07', 'm08', 'm09', 'm10', 'newest'],
    );
  });
});

describe('recordUpdate: where the entries come from', () => {
  const live = withEntries(configMap({ k: 'v' }, { app: 'a' }), created);
  const relabel = (managedFields: unknown) => ({
    ...configMap({ k: 'v' }, { app: 'b' }),
    metadata: { ...configMap({}, { app: 'b' }).metadata, managedFields },
  });
  const opts = { apiVersion: 'v1', now: T2 };

  it('[{}] clears them, then the writer owns what it changed', () => {
    assert.deepEqual(recordUpdate(live, relabel([{}]), 'editor', cmSchema, opts), [
      update('editor', T2, { 'f:metadata': { 'f:labels': { 'f:app': {} } } }),
    ]);
  });

  it('[{}] alone leaves no entries', () => {
    const same = { ...live, metadata: { ...live.metadata, managedFields: [{}] } };
    assert.deepEqual(recordUpdate(live, same, 'editor', cmSchema, opts), []);
  });

  it('[] keeps the stored entries', () => {
    assert.deepEqual(recordUpdate(live, relabel([]), 'editor', cmSchema, opts), [
      update('kubectl-create', T1, {
        'f:data': { '.': {}, 'f:k': {} },
        'f:metadata': { 'f:labels': {} },
      }),
      update('editor', T2, { 'f:metadata': { 'f:labels': { 'f:app': {} } } }),
    ]);
  });

  it('entries the request carries replace the stored ones', () => {
    const edited = [update('renamed', T1, { 'f:data': { 'f:k': {} } })];
    assert.deepEqual(recordUpdate(live, relabel(edited), 'editor', cmSchema, opts), [
      update('renamed', T1, { 'f:data': { 'f:k': {} } }),
      update('editor', T2, { 'f:metadata': { 'f:labels': { 'f:app': {} } } }),
    ]);
  });

  it('entries the request carries that do not decode are ignored', () => {
    const out = recordUpdate(live, relabel([{ manager: 'x', operation: 'Patch' }]), 'editor', cmSchema, opts);
    assert.deepEqual(
      out.map((e) => e.manager),
      ['kubectl-create', 'editor'],
    );
  });

  it('an existing object without entries stays untracked', () => {
    const bare = { ...live, metadata: { ...live.metadata, managedFields: undefined } };
    assert.deepEqual(recordUpdate(bare, relabel(undefined), 'editor', cmSchema, opts), []);
  });

  it('an object kube could not type keeps its stored entries', () => {
    const stored = [update('ctl', T1, { 'f:spec': { 'f:replicas': {} } }, { apiVersion: widgetApiVersion })];
    const w = withEntries(widget({ replicas: 1 }), stored);
    const broken = { ...w, spec: { replicas: 1, containers: [{ image: 'no-name' }] } };
    assert.deepEqual(
      recordUpdate(w, broken, 'other', widgetSchema, { apiVersion: widgetApiVersion, now: T2 }),
      stored,
    );
  });
});

describe('managerName', () => {
  const cases: Array<[string | undefined, string | undefined, string]> = [
    ['my-controller', 'kubectl/v1.32.3 (linux/amd64) kubernetes/abc', 'my-controller'],
    [undefined, 'kubectl/v1.32.3 (linux/amd64) kubernetes/abc', 'kubectl'],
    ['', 'Go-http-client/1.1', 'Go-http-client'],
    [undefined, 'a\u0007b c/1', 'ab c'],
    [undefined, undefined, ''],
    [undefined, 'x'.repeat(200), 'x'.repeat(128)],
  ];
  for (const [fieldManager, userAgent, expected] of cases) {
    it(`${JSON.stringify(fieldManager)} / ${JSON.stringify(userAgent?.slice(0, 30))} → ${JSON.stringify(expected.slice(0, 20))}`, () =>
      assert.equal(managerName(fieldManager, userAgent), expected));
  }
});
