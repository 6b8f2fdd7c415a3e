/**
 * core/v1 Event: a report about something that happened to an object. Through the core API kube only
 * applies its legacy event rules (no name rule beyond a valid path segment), so `nameRule` is 'pathSegment'.
 */
import type { ResourceDefinition, Schema, Strategy } from '../../registry/index.js';
import { isPlainObject, type KubeObject } from '../../api/index.js';
import { fieldError, type FieldError } from '../../api/index.js';
import { stringAt, timestampSince } from '../columns.js';
import {
  field,
  int32,
  kindSchema,
  microTimeSchema,
  objectReferenceSchema,
  pointer,
  str,
  timeSchema,
} from '../../api/index.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../validation/index.js';

export const reportingInstanceLengthLimit = 128;
export const actionLengthLimit = 128;
export const reasonLengthLimit = 128;
export const noteLengthLimit = 1024;

const eventSeriesSchema: Schema = {
  type: 'object',
  description: 'Data about a series of repeated occurrences of the event.',
  properties: {
    count: int32(1, 'Number of occurrences in the series up to the last heartbeat.'),
    lastObservedTime: field(2, microTimeSchema),
  },
  'x-pgkube-ref': 'io.k8s.api.core.v1.EventSeries',
};

export const eventSourceSchema: Schema = {
  type: 'object',
  description: 'Where the event came from.',
  properties: {
    component: str(1, 'The component that reported the event.'),
    host: str(2, 'The node the event was generated on.'),
  },
  'x-pgkube-ref': 'io.k8s.api.core.v1.EventSource',
};

const schema = kindSchema({
  description: 'A report of something that happened in the cluster, about one object (the involved object).',
  properties: {
    action: str(12, 'What was done, or what failed, about the involved object.'),
    count: int32(8, 'How many times the event occurred.'),
    eventTime: field(10, microTimeSchema),
    firstTimestamp: field(6, timeSchema),
    involvedObject: field(2, objectReferenceSchema),
    lastTimestamp: field(7, timeSchema),
    message: str(4, 'Human-readable description of what happened.'),
    reason: str(3, 'Short, machine-readable CamelCase reason for the event.'),
    related: pointer(field(13, objectReferenceSchema)),
    reportingComponent: str(14, 'Name of the controller that emitted the event, e.g. kubernetes.io/kubelet.'),
    reportingInstance: str(15, 'ID of the controller instance that emitted the event, e.g. kubelet-xyzf.'),
    series: pointer(field(11, eventSeriesSchema)),
    source: field(5, eventSourceSchema),
    type: str(9, 'Type of the event: Normal or Warning; more may be added.'),
  },
  required: ['metadata', 'involvedObject'],
});

const strOf = stringAt;
const recordOf = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});

/** Go's zero MicroTime: unset, null, or year 1. */
export function isZeroTime(value: unknown): boolean {
  if (typeof value !== 'string' || !value) return true;
  const at = Date.parse(value);
  return Number.isNaN(at) || at <= Date.parse('0001-01-01T00:00:00Z');
}

/** kube's legacy (core/v1) event rules; the field names in paths are kube's internal ones. */
export function validateLegacyEvent(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = strOf(obj.metadata.namespace);
  const involvedNamespace = strOf(recordOf(obj.involvedObject).namespace);
  const mismatch = (): FieldError =>
    fieldError.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (isZeroTime(obj.eventTime)) {
    // old-style events: the namespaces must agree ("default" is tolerated for cluster-scoped objects)
    if (!involvedNamespace) {
      if (namespace !== '' && namespace !== 'default') errs.push(mismatch());
    } else if (namespace !== involvedNamespace) {
      errs.push(mismatch());
    }
  } else {
    if (!involvedNamespace && namespace !== 'default' && namespace !== 'kube-system') errs.push(mismatch());
    const controller = strOf(obj.reportingComponent);
    if (!controller) errs.push(fieldError.required('reportingController'));
    for (const msg of isQualifiedName(controller))
      errs.push(fieldError.invalid('reportingController', controller, msg));
    const limited: [string, number][] = [
      ['reportingInstance', reportingInstanceLengthLimit],
      ['action', actionLengthLimit],
      ['reason', reasonLengthLimit],
    ];
    for (const [name, limit] of limited) {
      const value = strOf(obj[name]);
      if (!value) errs.push(fieldError.required(name));
      if (Buffer.byteLength(value) > limit)
        errs.push(fieldError.invalid(name, '', `can have at most ${limit} characters`));
    }
    if (Buffer.byteLength(strOf(obj.message)) > noteLengthLimit) {
      errs.push(fieldError.invalid('message', '', `can have at most ${noteLengthLimit} characters`));
    }
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(fieldError.invalid('namespace', namespace, msg));
  return errs;
}

export const eventStrategy: Strategy = {
  validate: validateLegacyEvent,
  selectableFields(obj: KubeObject) {
    const involved = recordOf(obj.involvedObject);
    const source = strOf(recordOf(obj.source).component) || strOf(obj.reportingComponent);
    return {
      'involvedObject.kind': strOf(involved.kind),
      'involvedObject.namespace': strOf(involved.namespace),
      'involvedObject.name': strOf(involved.name),
      'involvedObject.uid': strOf(involved.uid),
      'involvedObject.apiVersion': strOf(involved.apiVersion),
      'involvedObject.resourceVersion': strOf(involved.resourceVersion),
      'involvedObject.fieldPath': strOf(involved.fieldPath),
      reason: strOf(obj.reason),
      reportingComponent: strOf(obj.reportingComponent),
      source,
      type: strOf(obj.type),
    };
  },
};

/** The times and count kube's event printer shows, falling back the way it does for newer-style events. */
export function eventTimes(obj: KubeObject, nowMs: number): { first: string; last: string; count: number } {
  const first = isZeroTime(obj.firstTimestamp)
    ? timestampSince(obj.eventTime, nowMs)
    : timestampSince(obj.firstTimestamp, nowMs);
  let last = isZeroTime(obj.lastTimestamp) ? first : timestampSince(obj.lastTimestamp, nowMs);
  let count = typeof obj.count === 'number' ? obj.count : 0;
  if (isPlainObject(obj.series)) {
    last = timestampSince(obj.series.lastObservedTime, nowMs);
    count = typeof obj.series.count === 'number' ? obj.series.count : 0;
  } else if (count === 0) {
    count = 1; // singletons have no count in the newer API
  }
  return { first, last, count };
}

function eventTarget(obj: KubeObject): string {
  const involved = recordOf(obj.involvedObject);
  const kind = strOf(involved.kind).toLowerCase();
  const name = strOf(involved.name);
  return name ? `${kind}/${name}` : kind;
}

function eventSource(obj: KubeObject): string {
  const source = recordOf(obj.source);
  const component = strOf(source.component) || strOf(obj.reportingComponent);
  const instance = strOf(source.host) || strOf(obj.reportingInstance);
  return instance ? `${component}, ${instance}` : component;
}

export const eventDefinition: ResourceDefinition = {
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'events',
  singular: 'event',
  kind: 'Event',
  listKind: 'EventList',
  scope: 'Namespaced',
  shortNames: ['ev'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'pathSegment',
  allowCreateOnUpdate: true,
  // kube's event storage never asks the garbage collector for anything (events may not be owners either)
  garbageCollectionPolicy: 'Unsupported',
  schema,
  description: schema.description ?? '',
  printerColumns: [
    {
      name: 'Last Seen',
      type: 'string',
      description: 'Time since the most recent occurrence.',
      priority: 0,
      jsonPath: '.lastTimestamp',
      cell: (obj, now) => eventTimes(obj, now).last,
    },
    {
      name: 'Type',
      type: 'string',
      description: 'Normal or Warning.',
      priority: 0,
      jsonPath: '.type',
      cell: (o) => strOf(o.type),
    },
    {
      name: 'Reason',
      type: 'string',
      description: 'Why the event happened.',
      priority: 0,
      jsonPath: '.reason',
      cell: (o) => strOf(o.reason),
    },
    {
      name: 'Object',
      type: 'string',
      description: 'The object the event is about, as kind/name.',
      priority: 0,
      jsonPath: '.involvedObject.name',
      cell: eventTarget,
    },
    {
      name: 'Subobject',
      type: 'string',
      description: 'The part of the object the event is about.',
      priority: 1,
      jsonPath: '.involvedObject.fieldPath',
      cell: (o) => strOf(recordOf(o.involvedObject).fieldPath),
    },
    {
      name: 'Source',
      type: 'string',
      description: 'Who reported the event.',
      priority: 1,
      jsonPath: '.source.component',
      cell: eventSource,
    },
    {
      name: 'Message',
      type: 'string',
      description: 'What happened.',
      priority: 0,
      jsonPath: '.message',
      cell: (o) => strOf(o.message).trim(),
    },
    {
      name: 'First Seen',
      type: 'string',
      description: 'Time since the first occurrence.',
      priority: 1,
      jsonPath: '.firstTimestamp',
      cell: (obj, now) => eventTimes(obj, now).first,
    },
    {
      name: 'Count',
      type: 'string',
      description: 'How many times the event occurred.',
      priority: 1,
      jsonPath: '.count',
      cell: (obj, now) => eventTimes(obj, now).count,
    },
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: 'Name of the event object.',
      priority: 1,
      jsonPath: '.metadata.name',
    },
  ],
  strategy: eventStrategy,
};
