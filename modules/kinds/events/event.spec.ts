import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type FieldError, type KubeObject } from '../../api/index.js';
import { coreToEvents, eventsToCore } from './event-conversion.js';
import { eventsEventDefinition, eventsEventStrategy } from './event.js';
import { eventDefinition } from '../core/event.js';

const show = (errs: FieldError[] = []): string[] => errs.map(formatFieldError);
const ctx = {} as never;

const metadata = { name: 'pod-a.17a8', namespace: 'default', resourceVersion: '7' };
const ref = (name: string) => ({
  kind: 'Pod',
  namespace: 'default',
  name,
  uid: `u-${name}`,
  apiVersion: 'v1',
});

/** kube's mapping (pkg/apis/events/v1 conversion through the internal Event), one field at a time */
const mapping: { core: Record<string, unknown>; events: Record<string, unknown> }[] = [
  { core: { message: 'hi' }, events: { note: 'hi' } },
  { core: { involvedObject: ref('a') }, events: { regarding: ref('a') } },
  { core: { related: ref('b') }, events: { related: ref('b') } },
  { core: { reportingComponent: 'kubelet' }, events: { reportingController: 'kubelet' } },
  { core: { reportingInstance: 'node-1' }, events: { reportingInstance: 'node-1' } },
  {
    core: { source: { component: 'kubelet', host: 'n1' } },
    events: { deprecatedSource: { component: 'kubelet', host: 'n1' } },
  },
  {
    core: { firstTimestamp: '2024-01-01T00:00:00Z' },
    events: { deprecatedFirstTimestamp: '2024-01-01T00:00:00Z' },
  },
  {
    core: { lastTimestamp: '2024-01-01T00:00:09Z' },
    events: { deprecatedLastTimestamp: '2024-01-01T00:00:09Z' },
  },
  { core: { count: 3 }, events: { deprecatedCount: 3 } },
  {
    core: { series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000001Z' } },
    events: { series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000001Z' } },
  },
  {
    core: { eventTime: '2024-01-01T00:00:00.000001Z' },
    events: { eventTime: '2024-01-01T00:00:00.000001Z' },
  },
  { core: { action: 'Binding' }, events: { action: 'Binding' } },
  { core: { reason: 'Scheduled' }, events: { reason: 'Scheduled' } },
  { core: { type: 'Warning' }, events: { type: 'Warning' } },
];

describe('events.k8s.io/v1 <-> core/v1 Event conversion', () => {
  for (const { core, events } of mapping) {
    const name = Object.keys(core)[0];
    it(`${name} <-> ${Object.keys(events)[0]}`, () => {
      assert.deepEqual(coreToEvents({ apiVersion: 'v1', kind: 'Event', metadata, ...core }), {
        kind: 'Event',
        apiVersion: 'events.k8s.io/v1',
        metadata,
        ...events,
      });
      assert.deepEqual(eventsToCore({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata, ...events }), {
        kind: 'Event',
        apiVersion: 'v1',
        metadata,
        ...core,
      });
    });
  }

  const full: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata,
    ...Object.assign({}, ...mapping.map((m) => m.core)),
  };
  it('a full object round-trips both ways', () => {
    assert.deepEqual(eventsToCore(coreToEvents(full)), full);
    const events = coreToEvents(full);
    assert.deepEqual(coreToEvents(eventsToCore(events)), events);
  });

  it('writes the fields in the order kube writes them', () => {
    assert.deepEqual(Object.keys(coreToEvents(full)), [
      'kind',
      'apiVersion',
      'metadata',
      'eventTime',
      'series',
      'reportingController',
      'reportingInstance',
      'action',
      'reason',
      'regarding',
      'related',
      'note',
      'type',
      'deprecatedSource',
      'deprecatedFirstTimestamp',
      'deprecatedLastTimestamp',
      'deprecatedCount',
    ]);
  });

  it('leaves absent fields absent and the input untouched', () => {
    const core: KubeObject = { apiVersion: 'v1', kind: 'Event', metadata, reason: 'X' };
    const before = structuredClone(core);
    assert.deepEqual(coreToEvents(core), {
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata,
      reason: 'X',
    });
    assert.deepEqual(core, before);
  });

  it("renames the managers' top-level fields and keeps their apiVersion", () => {
    const entry = (fieldsV1: unknown) => ({
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2024-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1,
    });
    const core: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        ...metadata,
        managedFields: [entry({ 'f:message': {}, 'f:involvedObject': { 'f:name': {} }, 'f:reason': {} })],
      },
    };
    const events = coreToEvents(core);
    assert.deepEqual(events.metadata.managedFields, [
      entry({ 'f:note': {}, 'f:regarding': { 'f:name': {} }, 'f:reason': {} }),
    ]);
    assert.deepEqual(eventsToCore(events), core);
  });
});

const newEvent = (extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'pod-a.17a8', namespace: 'default' },
  eventTime: '2024-01-01T00:00:00.000001Z',
  reportingController: 'example.com/scheduler',
  reportingInstance: 'scheduler-1',
  action: 'Binding',
  reason: 'Scheduled',
  regarding: ref('pod-a'),
  note: 'Assigned default/pod-a to node-1',
  type: 'Normal',
  ...extra,
});

describe('events.k8s.io/v1 Event validation on create', () => {
  const validate = (obj: KubeObject) => show(eventsEventStrategy.validate?.(obj, ctx));
  const cases: { name: string; obj: KubeObject; want: string[] }[] = [
    { name: 'a new-style event', obj: newEvent(), want: [] },
    {
      name: 'eventTime is required (without it, the old-style rules apply)',
      obj: newEvent({ eventTime: undefined, reportingController: '', reportingInstance: '', action: '' }),
      want: ['eventTime: Required value'],
    },
    {
      name: 'without eventTime, the legacy rules for old-style events apply too',
      obj: newEvent({ eventTime: undefined, regarding: { ...ref('a'), namespace: 'other' } }),
      want: [
        'involvedObject.namespace: Invalid value: "other": does not match event.namespace',
        'eventTime: Required value',
      ],
    },
    {
      name: 'reporting fields, action and reason are required of new-style events',
      obj: newEvent({ reportingController: undefined, reportingInstance: '', action: '', reason: '' }),
      want: [
        'reportingController: Required value',
        'reportingController: Invalid value: "": name part must be non-empty',
        "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'reportingInstance: Required value',
        'action: Required value',
        'reason: Required value',
      ],
    },
    {
      name: 'the note is at most 1 KiB',
      obj: newEvent({ note: 'n'.repeat(1025) }),
      want: ['message: Invalid value: "": can have at most 1024 characters'],
    },
    {
      name: 'type is Normal or Warning',
      obj: newEvent({ type: 'Info' }),
      want: ['type: Invalid value: "": has invalid value: Info'],
    },
    {
      name: 'the deprecated fields must be unset',
      obj: newEvent({
        deprecatedSource: { component: 'kubelet' },
        deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
        deprecatedLastTimestamp: '2024-01-01T00:00:00Z',
        deprecatedCount: 2,
      }),
      want: [
        'firstTimestamp: Invalid value: "": needs to be unset',
        'lastTimestamp: Invalid value: "": needs to be unset',
        'count: Invalid value: "": needs to be unset',
        'source: Invalid value: "": needs to be unset',
      ],
    },
    {
      name: 'a series counts at least 2 and has a time',
      obj: newEvent({ series: { count: 1 } }),
      want: [
        'series.count: Invalid value: "": should be at least 2',
        'series.lastObservedTime: Required value',
      ],
    },
    {
      name: 'the name is a DNS subdomain',
      obj: newEvent({ metadata: { name: 'Pod_A.1', namespace: 'default' } }),
      want: [
        "metadata.name: Invalid value: \"Pod_A.1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    },
    {
      name: 'a cluster-scoped object’s event lives in default or kube-system',
      obj: newEvent({
        regarding: { kind: 'Node', name: 'node-1' },
        metadata: { name: 'n.1', namespace: 'team' },
      }),
      want: ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validate(c.obj), c.want));
});

describe('events.k8s.io/v1 Event validation on update', () => {
  const validate = (obj: KubeObject, old: KubeObject) =>
    show(eventsEventStrategy.validateUpdate?.(obj, old, ctx));
  it('replaces the create rules (kube runs other checks on update)', () => {
    assert.equal(eventsEventStrategy.updateReplacesValidate, true);
  });
  it('a growing series is fine', () => {
    const old = newEvent();
    const next = newEvent({ series: { count: 2, lastObservedTime: '2024-01-01T00:01:00.000000Z' } });
    assert.deepEqual(validate(next, old), []);
  });
  it('a changed series is checked again', () => {
    assert.deepEqual(validate(newEvent({ series: { count: 1, lastObservedTime: '' } }), newEvent()), [
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
    ]);
  });
  it('what the event reports is immutable, named as kube names it (reason twice, as kube checks it)', () => {
    const next = newEvent({
      note: 'other',
      reason: 'Other',
      regarding: ref('b'),
      reportingController: 'example.com/other',
      action: 'Other',
      type: 'Warning',
    });
    assert.deepEqual(
      eventsEventStrategy.validateUpdate?.(next, newEvent(), ctx).map((e) => `${e.field}: ${e.detail}`),
      [
        'involvedObject: field is immutable',
        'reason: field is immutable',
        'message: field is immutable',
        'reason: field is immutable',
        'type: field is immutable',
        'action: field is immutable',
        'reportingController: field is immutable',
      ],
    );
  });
  it('a field left out equals its zero value, as Go compares', () => {
    const old = newEvent({
      deprecatedCount: 0,
      related: undefined,
      regarding: { ...ref('pod-a'), fieldPath: '' },
    });
    assert.deepEqual(validate(newEvent(), old), []);
  });
  it('an old-style core Event may be updated through events.k8s.io', () => {
    const old = coreToEvents({
      metadata: { name: 'Pod_A.1', namespace: 'default' },
      involvedObject: ref('pod-a'),
      reason: 'Started',
      message: 'Started',
      count: 1,
    });
    assert.deepEqual(validate({ ...old, metadata: { ...old.metadata, labels: { a: 'b' } } }, old), []);
  });
});

describe('events.k8s.io/v1 Event field selectors', () => {
  it('offers kube’s labels, read from the events.k8s.io form', () => {
    assert.deepEqual(
      eventsEventStrategy.selectableFields?.(newEvent({ regarding: { ...ref('pod-a'), fieldPath: 'spec' } })),
      {
        'regarding.kind': 'Pod',
        'regarding.namespace': 'default',
        'regarding.name': 'pod-a',
        'regarding.uid': 'u-pod-a',
        'regarding.apiVersion': 'v1',
        'regarding.resourceVersion': '',
        'regarding.fieldPath': 'spec',
        reason: 'Scheduled',
        reportingController: 'example.com/scheduler',
        source: 'example.com/scheduler',
        type: 'Normal',
      },
    );
  });
  it('source is the deprecated source when set', () => {
    const fields = eventsEventStrategy.selectableFields?.(
      newEvent({ deprecatedSource: { component: 'kubelet' } }),
    );
    assert.equal(fields?.source, 'kubelet');
  });
});

describe('events.k8s.io/v1 Event definition', () => {
  it('lives in the core Events’ storage', () => {
    assert.equal(eventsEventDefinition.storedWith?.definition, eventDefinition);
  });
  it('prints the core columns from the events.k8s.io form', () => {
    const now = Date.parse('2024-01-01T00:10:00Z');
    const obj = newEvent({ series: { count: 5, lastObservedTime: '2024-01-01T00:09:00.000000Z' } });
    const cells = Object.fromEntries(
      (eventsEventDefinition.printerColumns ?? []).map((c) => [
        c.name,
        c.cell ? c.cell(obj, now) : c.jsonPath,
      ]),
    );
    assert.deepEqual(cells, {
      'Last Seen': '60s',
      Type: 'Normal',
      Reason: 'Scheduled',
      Object: 'pod/pod-a',
      Subobject: '',
      Source: 'example.com/scheduler, scheduler-1',
      Message: 'Assigned default/pod-a to node-1',
      'First Seen': '10m',
      Count: 5,
      Name: '.metadata.name',
    });
  });
});
