/**
 * kube's rules for Events written through events.k8s.io/v1, on top of the legacy rules every Event meets
 * (core/event.ts). They read the core form (the object as stored), and their field paths are kube's internal
 * names (involvedObject, message, reportingController, ...), which is what kube's messages show whichever API
 * was written.
 */
import { isDeepStrictEqual } from 'node:util';
import { fieldError, isPlainObject, type FieldError, type KubeObject } from '../../api/index.js';
import { fieldImmutableErrorMsg, nameIsDNSSubdomain } from '../../validation/index.js';
import { isZeroTime, validateLegacyEvent } from '../core/event.js';

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function validateSeries(event: KubeObject): FieldError[] {
  if (!isPlainObject(event.series)) return [];
  const errs: FieldError[] = [];
  const count = typeof event.series.count === 'number' ? event.series.count : 0;
  if (count < 2) errs.push(fieldError.invalid('series.count', '', 'should be at least 2'));
  if (isZeroTime(event.series.lastObservedTime)) errs.push(fieldError.required('series.lastObservedTime'));
  return errs;
}

/** kube's object metadata rule for these creates: the name is a DNS subdomain. */
function validateName(event: KubeObject): FieldError[] {
  const name = str(event.metadata.name);
  return nameIsDNSSubdomain(name, false).map((msg) => fieldError.invalid('metadata.name', name, msg));
}

/** A create through events.k8s.io/v1: a new-style event, with none of the deprecated core fields set. */
export function validateNewEvent(event: KubeObject): FieldError[] {
  const errs = [...validateLegacyEvent(event), ...validateName(event), ...validateSeries(event)];
  if (isZeroTime(event.eventTime)) errs.push(fieldError.required('eventTime'));
  const type = str(event.type);
  if (type !== 'Normal' && type !== 'Warning')
    errs.push(fieldError.invalid('type', '', `has invalid value: ${type}`));
  if (!isZeroTime(event.firstTimestamp))
    errs.push(fieldError.invalid('firstTimestamp', '', 'needs to be unset'));
  if (!isZeroTime(event.lastTimestamp))
    errs.push(fieldError.invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof event.count === 'number' && event.count !== 0)
    errs.push(fieldError.invalid('count', '', 'needs to be unset'));
  const source = isPlainObject(event.source) ? event.source : {};
  if (str(source.component) || str(source.host))
    errs.push(fieldError.invalid('source', '', 'needs to be unset'));
  return errs;
}

/**
 * Go compares typed values: a field left out and one at its zero value ("" , 0, null, {}) are the same.
 * Values are brought to that form before they are compared.
 */
function goValue(value: unknown): unknown {
  if (value === undefined || value === null || value === '' || value === 0 || value === false)
    return undefined;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const kept = goValue(v);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/** what an Event written through events.k8s.io/v1 may not change, in the order kube checks it (reason twice) */
const immutableFields = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'reason',
  'type',
  'eventTime',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
];

/** kube's internal name of a core/v1 field, as its messages show it */
const internalName = (field: string): string =>
  field === 'reportingComponent' ? 'reportingController' : field;

/** An update through events.k8s.io/v1: the series may grow; what the event reports may not change. */
export function validateNewEventUpdate(event: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateLegacyEvent(event);
  if (!isDeepStrictEqual(goValue(event.series), goValue(old.series))) errs.push(...validateSeries(event));
  for (const field of immutableFields) {
    if (!isDeepStrictEqual(goValue(event[field]), goValue(old[field])))
      errs.push(fieldError.invalid(internalName(field), event[field] ?? '', fieldImmutableErrorMsg));
  }
  return errs;
}
