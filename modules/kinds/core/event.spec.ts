import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type FieldError } from '../../api/index.js';
import type { KubeObject } from '../../api/index.js';
import { eventDefinition, eventStrategy, validateLegacyEvent } from './event.js';

const show = (errs: FieldError[] = []): string[] => errs.map(formatFieldError);
const event = (extra: Partial<KubeObject> = {}, namespace = 'default'): KubeObject => ({
  metadata: { name: 'pod-a.17a8', namespace },
  involvedObject: {
    kind: 'Pod',
    name: 'pod-a',
    namespace: 'default',
    uid: 'u1',
    apiVersion: 'v1',
    fieldPath: 'spec.containers{app}',
  },
  reason: 'Started',
  message: 'Started container app',
  type: 'Normal',
  ...extra,
});
const newStyle = {
  eventTime: '2024-01-01T00:00:00.000000Z',
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
  action: 'Start',
};

describe('core/v1 Event validation', () => {
  const cases: { name: string; obj: KubeObject; want: string[] }[] = [
    { name: 'classic event', obj: event(), want: [] },
    {
      name: 'namespaces must agree',
      obj: event({}, 'other'),
      want: ['involvedObject.namespace: Invalid value: "default": does not match event.namespace'],
    },
    {
      name: 'cluster-scoped object, event in default',
      obj: event({ involvedObject: { kind: 'Node', name: 'n1' } }),
      want: [],
    },
    {
      name: 'cluster-scoped object, event elsewhere',
      obj: event({ involvedObject: { kind: 'Node', name: 'n1' } }, 'team'),
      want: ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    },
    { name: 'new-style event', obj: event(newStyle), want: [] },
    {
      name: 'new-style event for a cluster-scoped object may live in kube-system',
      obj: event({ ...newStyle, involvedObject: { kind: 'Node', name: 'n1' } }, 'kube-system'),
      want: [],
    },
    {
      name: 'new-style event needs its reporting fields',
      obj: event({ eventTime: '2024-01-01T00:00:00.000000Z', reason: '' }),
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
      name: 'new-style length limits',
      obj: event({
        ...newStyle,
        action: 'a'.repeat(129),
        reason: 'r'.repeat(129),
        message: 'm'.repeat(1025),
        reportingInstance: 'i'.repeat(129),
      }),
      want: [
        'reportingInstance: Invalid value: "": can have at most 128 characters',
        'action: Invalid value: "": can have at most 128 characters',
        'reason: Invalid value: "": can have at most 128 characters',
        'message: Invalid value: "": can have at most 1024 characters',
      ],
    },
    {
      name: 'namespace must be a DNS subdomain',
      obj: event({ involvedObject: { kind: 'Pod', namespace: 'Bad' } }, 'Bad'),
      want: [
        "namespace: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(validateLegacyEvent(c.obj)), c.want));
  }
  it('is the strategy, with no extra update rules (kube re-runs the same checks)', () => {
    assert.equal(eventStrategy.validate, validateLegacyEvent);
    assert.equal(eventStrategy.validateUpdate, undefined);
  });
});

describe('Event field selectors', () => {
  it('exposes kube’s selectable fields', () => {
    assert.deepEqual(
      eventStrategy.selectableFields?.(event({ source: { component: 'kubelet', host: 'n1' } })),
      {
        'involvedObject.kind': 'Pod',
        'involvedObject.namespace': 'default',
        'involvedObject.name': 'pod-a',
        'involvedObject.uid': 'u1',
        'involvedObject.apiVersion': 'v1',
        'involvedObject.resourceVersion': '',
        'involvedObject.fieldPath': 'spec.containers{app}',
        reason: 'Started',
        reportingComponent: '',
        source: 'kubelet',
        type: 'Normal',
      },
    );
  });
  it('source falls back to the reporting controller', () => {
    const fields = eventStrategy.selectableFields?.(event(newStyle));
    assert.equal(fields?.source, 'kubelet');
    assert.equal(fields?.reportingComponent, 'kubelet');
  });
});

describe('Event table', () => {
  const now = Date.parse('2024-01-01T01:00:00Z');
  const cells = (obj: KubeObject) =>
    Object.fromEntries(
      (eventDefinition.printerColumns ?? []).map((c) => [c.name, c.cell ? c.cell(obj, now) : null]),
    );
  it('classic event', () => {
    const obj = event({
      firstTimestamp: '2024-01-01T00:00:00Z',
      lastTimestamp: '2024-01-01T00:55:00Z',
      count: 4,
      source: { component: 'kubelet', host: 'node-1' },
      message: '  Started container app\n',
    });
    assert.deepEqual(cells(obj), {
      'Last Seen': '5m',
      Type: 'Normal',
      Reason: 'Started',
      Object: 'pod/pod-a',
      Subobject: 'spec.containers{app}',
      Source: 'kubelet, node-1',
      Message: 'Started container app',
      'First Seen': '60m',
      Count: 4,
      Name: null,
    });
  });
  it('new-style event falls back to eventTime, series and reporting fields', () => {
    const obj = event({
      ...newStyle,
      involvedObject: { kind: 'Node' },
      series: { count: 7, lastObservedTime: '2024-01-01T00:59:30.000000Z' },
    });
    const c = cells(obj);
    assert.equal(c['First Seen'], '60m');
    assert.equal(c['Last Seen'], '30s');
    assert.equal(c.Count, 7);
    assert.equal(c.Object, 'node');
    assert.equal(c.Source, 'kubelet, node-1');
  });
  it('a singleton without count shows 1 and unknown times', () => {
    const c = cells(event());
    assert.equal(c.Count, 1);
    assert.equal(c['Last Seen'], '<unknown>');
  });
  it('the priority-1 columns are the -o wide ones', () => {
    assert.deepEqual(
      eventDefinition.printerColumns?.filter((c) => c.priority === 1).map((c) => c.name),
      ['Subobject', 'Source', 'First Seen', 'Count', 'Name'],
    );
  });
});
