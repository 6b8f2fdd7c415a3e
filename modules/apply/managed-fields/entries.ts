/**
 * `metadata.managedFields` as kube reads and writes it. Internally the entries are a map from a manager
 * identity (manager name, operation, subresource, and, for updates only, the API version) to the fields that
 * manager owns; decoding keeps the last entry of each identity, encoding sorts entries the way kube stores
 * them (Apply before Update, then oldest first, then by manager, API version and subresource).
 */
import { FieldSet, FieldsV1Error, type FieldsV1 } from './field-set.js';
import { compareStrings, isObject } from './json-value.js';

export type Operation = 'Apply' | 'Update';

/** One entry of `metadata.managedFields`, with its keys in kube's order. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: FieldsV1;
  subresource?: string;
}

export interface ManagerFields {
  readonly fields: FieldSet;
  /** API version the fields were written in */
  readonly apiVersion: string;
  /** true for an Apply entry */
  readonly applied: boolean;
  /** RFC 3339 time of the manager's last change, when known */
  readonly time?: string;
}

/** Manager identity (see managerIdentity) to what that manager owns. */
export type Managed = Map<string, ManagerFields>;

export interface ManagerIdentity {
  readonly manager: string;
  readonly operation: Operation;
  /** part of the identity of Update entries only: appliers keep one entry across versions */
  readonly apiVersion?: string;
  readonly subresource?: string;
}

/** kube's identity string: the entry's JSON without time, fields and (for appliers) API version. */
export function managerIdentity(id: ManagerIdentity): string {
  const out: Record<string, string> = {};
  if (id.manager) out.manager = id.manager;
  out.operation = id.operation;
  if (id.operation === 'Update' && id.apiVersion) out.apiVersion = id.apiVersion;
  if (id.subresource) out.subresource = id.subresource;
  return JSON.stringify(out);
}

export function parseManagerIdentity(identity: string): ManagerIdentity {
  const raw = JSON.parse(identity) as Record<string, string | undefined>;
  return {
    manager: raw.manager ?? '',
    operation: raw.operation === 'Apply' ? 'Apply' : 'Update',
    apiVersion: raw.apiVersion,
    subresource: raw.subresource,
  };
}

/** How kube names a manager in conflict messages: `"kubectl"`, `"ctl" with subresource "status" using v1`. */
export function describeManager(identity: string): string {
  let id: ManagerIdentity;
  try {
    id = parseManagerIdentity(identity);
  } catch {
    return JSON.stringify(identity);
  }
  let text = JSON.stringify(id.manager);
  if (id.subresource) text += ` with subresource ${JSON.stringify(id.subresource)}`;
  if (id.operation === 'Update') text += ` using ${id.apiVersion ?? ''}`;
  return text;
}

export class ManagedFieldsError extends Error {}

/** RFC 3339 in UTC with second precision, as metav1.Time is written back. */
function normalizeTime(time: unknown): string | undefined {
  if (typeof time !== 'string' || time === '') return undefined;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? time : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Reads `metadata.managedFields` (absent or null is no entries); throws kube's messages on bad entries. */
export function decodeManagedFields(entries: unknown): Managed {
  const managed: Managed = new Map();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  entries.forEach((entry, i) => {
    const e = isObject(entry) ? entry : {};
    const operation = str(e.operation);
    if (operation !== 'Apply' && operation !== 'Update') {
      throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    }
    const apiVersion = str(e.apiVersion);
    if (!apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    const fieldsType = str(e.fieldsType);
    if (fieldsType === '') throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1') {
      throw new ManagedFieldsError(
        `invalid fieldsType ${JSON.stringify(fieldsType)} in managed fields entry ${i}`,
      );
    }
    let fields: FieldSet;
    try {
      fields = FieldSet.fromFieldsV1(e.fieldsV1);
    } catch (err) {
      if (!(err instanceof FieldsV1Error)) throw err;
      throw new ManagedFieldsError(`error decoding set: ${err.message}`);
    }
    const identity = managerIdentity({
      manager: str(e.manager),
      operation,
      apiVersion,
      subresource: str(e.subresource),
    });
    managed.set(identity, {
      fields,
      apiVersion,
      applied: operation === 'Apply',
      time: normalizeTime(e.time),
    });
  });
  return managed;
}

const seconds = (time: string | undefined): number => {
  const ms = time ? Date.parse(time) : NaN;
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
};

/** kube's storage order of entries. */
export function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  return (
    compareStrings(p.operation ?? '', q.operation ?? '') ||
    Math.sign(seconds(p.time) - seconds(q.time)) ||
    compareStrings(p.manager ?? '', q.manager ?? '') ||
    compareStrings(p.apiVersion ?? '', q.apiVersion ?? '') ||
    compareStrings(p.subresource ?? '', q.subresource ?? '')
  );
}

/** The entries kube writes for `managed` (none when nobody owns anything; kube then omits the field). */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const [identity, m] of managed) {
    const id = parseManagerIdentity(identity);
    const entry: ManagedFieldsEntry = {};
    if (id.manager) entry.manager = id.manager;
    entry.operation = m.applied ? 'Apply' : id.operation;
    if (m.apiVersion) entry.apiVersion = m.apiVersion;
    if (m.time) entry.time = m.time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = m.fields.toFieldsV1();
    if (id.subresource) entry.subresource = id.subresource;
    out.push(entry);
  }
  return out.sort(compareEntries);
}

const entryKeys = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'];

/**
 * A write that sets managedFields to exactly one empty entry asks to clear them. An empty list does not:
 * clients that drop fields they do not know must not wipe ownership by accident.
 */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries) || entries.length !== 1 || !isObject(entries[0])) return false;
  const e = entries[0];
  return entryKeys.every((k) => e[k] === undefined || e[k] === null || e[k] === '');
}

/** A copy of `obj` whose metadata.managedFields are `entries` (removed when there are none). */
export function withManagedFields<T extends { metadata?: Record<string, unknown> }>(
  obj: T,
  entries: ManagedFieldsEntry[],
): T {
  const metadata = { ...(obj.metadata ?? {}) };
  if (entries.length > 0) metadata.managedFields = entries;
  else delete metadata.managedFields;
  return { ...obj, metadata };
}
