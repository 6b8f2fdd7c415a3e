/**
 * events.k8s.io/v1 Event <-> core/v1 Event, the form both APIs store. kube converts both through one internal
 * Event; the mapping is a renaming of top-level fields, so each direction is one pass over the object. A
 * field absent on one side stays absent on the other (no Go zero values are invented).
 *
 * managedFields travel with the object: their field sets name top-level fields too, so they are renamed the
 * same way and each API sees ownership in its own field names (the entries keep the apiVersion they were
 * written with).
 */
import { isPlainObject, type KubeObject } from '../../api/index.js';

export const EVENTS_GROUP = 'events.k8s.io';
export const EVENTS_API_VERSION = 'events.k8s.io/v1';

/** core/v1 name → events.k8s.io/v1 name, for the fields the two APIs name differently */
const renamed: Readonly<Record<string, string>> = {
  involvedObject: 'regarding',
  message: 'note',
  reportingComponent: 'reportingController',
  source: 'deprecatedSource',
  firstTimestamp: 'deprecatedFirstTimestamp',
  lastTimestamp: 'deprecatedLastTimestamp',
  count: 'deprecatedCount',
};

/** The events.k8s.io/v1 name of a core/v1 Event field. */
export const eventsFieldName = (core: string): string => renamed[core] ?? core;

const toCoreName: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(renamed).map(([core, events]) => [events, core]),
);

/** the order kube writes each kind's fields in (its Go struct order), after apiVersion, kind and metadata */
const eventsOrder = [
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
];
const coreOrder = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'series',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
];

function rename(
  obj: KubeObject,
  names: Readonly<Record<string, string>>,
  order: readonly string[],
  apiVersion: string,
): KubeObject {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (key !== 'apiVersion' && key !== 'kind' && key !== 'metadata') fields[names[key] ?? key] = value;
  }
  const out: KubeObject = { kind: 'Event', apiVersion, metadata: renamedManagedFields(obj.metadata, names) };
  for (const key of order) if (Object.hasOwn(fields, key)) out[key] = fields[key];
  for (const key of Object.keys(fields)) if (!Object.hasOwn(out, key)) out[key] = fields[key];
  return out;
}

/** The managers' field sets with their top-level `f:<field>` keys renamed; everything else as it was. */
function renamedManagedFields(
  metadata: KubeObject['metadata'],
  names: Readonly<Record<string, string>>,
): KubeObject['metadata'] {
  const entries = metadata.managedFields;
  if (!Array.isArray(entries)) return metadata;
  const managedFields = entries.map((entry: unknown) => {
    if (!isPlainObject(entry) || !isPlainObject(entry.fieldsV1)) return entry;
    const fieldsV1: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry.fieldsV1)) {
      const name = key.startsWith('f:') ? names[key.slice(2)] : undefined;
      fieldsV1[name ? `f:${name}` : key] = value;
    }
    return { ...entry, fieldsV1 };
  });
  return { ...metadata, managedFields };
}

/** A stored core/v1 Event as events.k8s.io/v1 shows it. */
export function coreToEvents(obj: KubeObject): KubeObject {
  return rename(obj, renamed, eventsOrder, EVENTS_API_VERSION);
}

/** An events.k8s.io/v1 Event as core/v1 stores it. */
export function eventsToCore(obj: KubeObject): KubeObject {
  return rename(obj, toCoreName, coreOrder, 'v1');
}
