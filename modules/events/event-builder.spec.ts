import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../api/index.js';
import { eventsEventDefinition } from '../kinds/index.js';
import { buildEvent, microTime, referenceTo, withRepeat } from './event-builder.js';
import { EventSeries, SERIES_WINDOW_MS } from './event-series.js';

const reporter = { reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-host1' };
const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'team', uid: 'u1', resourceVersion: '12' },
};
const t0 = 1_704_067_200_123_456_789n; // 2024-01-01T00:00:00.123456789Z
const report = {
  regarding: referenceTo(pod),
  type: 'Normal' as const,
  reason: 'Scheduled',
  action: 'Binding',
  note: 'Successfully assigned team/web-1 to node-1',
};
const validate = (obj: ReturnType<typeof buildEvent>) =>
  (eventsEventDefinition.strategy.validate?.(obj, {} as never) ?? []).map(formatFieldError);

describe('event builder', () => {
  it('makes the event kube’s recorder makes', () => {
    assert.deepEqual(buildEvent(reporter, report, t0), {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: `web-1.${t0.toString(16)}`, namespace: 'team' },
      eventTime: '2024-01-01T00:00:00.123456Z',
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-host1',
      action: 'Binding',
      reason: 'Scheduled',
      regarding: {
        kind: 'Pod',
        namespace: 'team',
        name: 'web-1',
        uid: 'u1',
        apiVersion: 'v1',
        resourceVersion: '12',
      },
      note: 'Successfully assigned team/web-1 to node-1',
      type: 'Normal',
    });
  });
  it('passes the API’s checks for new events', () => {
    assert.deepEqual(validate(buildEvent(reporter, report, t0)), []);
  });
  it('puts events about cluster-scoped objects in default, which the API accepts', () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', uid: 'n1' } };
    const event = buildEvent(reporter, { ...report, regarding: referenceTo(node), type: 'Warning' }, t0);
    assert.equal(event.metadata.namespace, 'default');
    assert.deepEqual(validate(event), []);
  });
  it('cuts a note longer than the API takes, at a character boundary', () => {
    const event = buildEvent(reporter, { ...report, note: 'é'.repeat(600) }, t0);
    assert.equal(event.note, 'é'.repeat(512));
    assert.deepEqual(validate(event), []);
  });
  it('keeps the related object and the fieldPath', () => {
    const event = buildEvent(reporter, { ...report, related: { kind: 'Node', name: 'node-1' } }, t0);
    assert.deepEqual(event.related, { kind: 'Node', name: 'node-1' });
    assert.equal(referenceTo(pod, 'spec.containers{app}').fieldPath, 'spec.containers{app}');
  });
  it('writes MicroTime with six digits', () => {
    assert.equal(microTime(1_000_000_000n), '1970-01-01T00:00:01.000000Z');
    assert.equal(microTime(1_000_001_999n), '1970-01-01T00:00:01.000001Z');
  });
  it('a repeat starts the series at 2, then counts on', () => {
    const first = withRepeat(buildEvent(reporter, report, t0), t0 + 1000n);
    assert.deepEqual(first.series, { count: 2, lastObservedTime: '2024-01-01T00:00:00.123457Z' });
    assert.equal((withRepeat(first, t0).series as { count: number }).count, 3);
  });
});

describe('event series', () => {
  const ms = (ns: bigint) => Number(ns / 1_000_000n);
  it('the same report again within the window updates the first event’s series', () => {
    const series = new EventSeries();
    const first = series.observe(buildEvent(reporter, report, t0), ms(t0), t0);
    assert.equal(first.kind, 'new');
    const t1 = t0 + 5_000_000_000n;
    const second = series.observe(buildEvent(reporter, { ...report, note: 'other words' }, t1), ms(t1), t1);
    assert.equal(second.kind, 'repeat');
    assert.equal(second.event.metadata.name, first.event.metadata.name);
    assert.equal(second.event.note, report.note);
    assert.deepEqual(second.event.series, { count: 2, lastObservedTime: microTime(t1) });
    const t2 = t1 + 1_000_000_000n;
    const third = series.observe(buildEvent(reporter, report, t2), ms(t2), t2);
    assert.deepEqual(third.event.series, { count: 3, lastObservedTime: microTime(t2) });
    assert.deepEqual(validate(third.event), []);
  });
  it('another reason, action or object is another event', () => {
    const series = new EventSeries();
    series.observe(buildEvent(reporter, report, t0), ms(t0), t0);
    for (const other of [
      { ...report, reason: 'FailedScheduling' },
      { ...report, action: 'Scheduling' },
      { ...report, regarding: { ...report.regarding, name: 'web-2' } },
    ]) {
      assert.equal(series.observe(buildEvent(reporter, other, t0 + 1n), ms(t0), t0 + 1n).kind, 'new');
    }
    assert.equal(series.size, 4);
  });
  it('after six minutes without a repeat, the next one is a new event', () => {
    const series = new EventSeries();
    series.observe(buildEvent(reporter, report, t0), ms(t0), t0);
    const late = t0 + BigInt(SERIES_WINDOW_MS + 1) * 1_000_000n;
    const next = series.observe(buildEvent(reporter, report, late), ms(late), late);
    assert.equal(next.kind, 'new');
    assert.equal(next.event.series, undefined);
    assert.equal(series.size, 1);
  });
});
