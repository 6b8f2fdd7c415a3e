/**
 * events.k8s.io/v1 Event: the newer view of the core Events. It has no rows of its own (`storedWith`): every
 * core/v1 Event is one, and the other way round, with the same resourceVersion. Writes through this API meet
 * kube's stricter rules for new-style events (event-validation.ts); the core API keeps its legacy ones.
 */
import type { PrinterColumn, ResourceDefinition, Schema, Strategy } from '../../registry/index.js';
import { isPlainObject, type KubeObject } from '../../api/index.js';
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
import { eventDefinition, eventSourceSchema } from '../core/event.js';
import { strAt } from '../values.js';
import { coreToEvents, EVENTS_GROUP, eventsFieldName, eventsToCore } from './event-conversion.js';
import { validateNewEvent, validateNewEventUpdate } from './event-validation.js';

const eventSeriesSchema: Schema = {
  type: 'object',
  description:
    'A run of the same event observed again and again; reporters update it now and then rather than ' +
    'writing a new event each time.',
  properties: {
    count: int32(1, 'How many times the event has been observed so far in this series.'),
    lastObservedTime: field(2, microTimeSchema),
  },
  required: ['count', 'lastObservedTime'],
  'x-pgkube-ref': 'io.k8s.api.events.v1.EventSeries',
};

const schema = kindSchema({
  description:
    'A report of something that happened to an object in the cluster, usually a change of state. Events ' +
    'are kept for a limited time and are best-effort, supplemental information.',
  properties: {
    action: str(6, 'What was done, or failed to be done, to the regarding object; machine-readable.'),
    deprecatedCount: int32(15, 'The count of the core/v1 form of the event; kept for compatibility.'),
    deprecatedFirstTimestamp: field(13, timeSchema),
    deprecatedLastTimestamp: field(14, timeSchema),
    deprecatedSource: field(12, eventSourceSchema),
    eventTime: field(2, microTimeSchema),
    note: str(10, 'Human-readable description of what happened; at most 1 KiB.'),
    reason: str(7, 'Why the action was taken, in a short CamelCase word; at most 128 characters.'),
    regarding: field(8, objectReferenceSchema),
    related: pointer(field(9, objectReferenceSchema)),
    reportingController: str(
      4,
      'The controller that reported the event, as a qualified name such as kubernetes.io/kubelet.',
    ),
    reportingInstance: str(5, 'Which instance of the controller reported the event; at most 128 characters.'),
    series: pointer(field(3, eventSeriesSchema)),
    type: str(11, 'Normal or Warning; more types may come.'),
  },
  required: ['eventTime'],
});

const regardingFields = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];

export const eventsEventStrategy: Strategy = {
  validate: (obj) => validateNewEvent(eventsToCore(obj)),
  validateUpdate: (obj, old) => validateNewEventUpdate(eventsToCore(obj), eventsToCore(old)),
  updateReplacesValidate: true,
  selectableFields(obj: KubeObject) {
    const regarding = isPlainObject(obj.regarding) ? obj.regarding : {};
    const source = isPlainObject(obj.deprecatedSource) ? obj.deprecatedSource : {};
    const controller = strAt(obj.reportingController);
    return {
      ...Object.fromEntries(regardingFields.map((f) => [`regarding.${f}`, strAt(regarding[f])])),
      reason: strAt(obj.reason),
      reportingController: controller,
      source: strAt(source.component) || controller,
      type: strAt(obj.type),
    };
  },
};

/** kube prints both APIs' Events with one printer: the core columns, read from the core form. */
function eventsColumn(column: PrinterColumn): PrinterColumn {
  const [, first, ...rest] = column.jsonPath.split('.');
  const jsonPath = ['', eventsFieldName(first), ...rest].join('.');
  const cell = column.cell;
  return cell
    ? { ...column, jsonPath, cell: (obj, now) => cell(eventsToCore(obj), now) }
    : { ...column, jsonPath };
}

export const eventsEventDefinition: ResourceDefinition = {
  group: EVENTS_GROUP,
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'events',
  singular: 'event',
  kind: 'Event',
  listKind: 'EventList',
  scope: 'Namespaced',
  shortNames: ['ev'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  // a core Event's name is any path segment: updates accept it here too; creates check more (validateNewEvent)
  nameRule: 'pathSegment',
  allowCreateOnUpdate: true,
  garbageCollectionPolicy: 'Unsupported',
  schema,
  description: schema.description ?? '',
  printerColumns: (eventDefinition.printerColumns ?? []).map(eventsColumn),
  strategy: eventsEventStrategy,
  storedWith: { definition: eventDefinition, fromStored: coreToEvents, toStored: eventsToCore },
};
