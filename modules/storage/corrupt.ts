/**
 * Corrupt rows (KEP-3926, spec part1 "Deletion of an object" rule 3). SQL can put anything a jsonb column holds
 * into a change-log body: a string, an array, `{}`, another kind's object. Every body read from the database
 * passes `decodeRow` once, here, so every read path (get, list, the watch cache's snapshot and change feed)
 * gives the same verdict: the structural checks below, then the kind-level check the registry installs
 * (`Store.setBodyCheck`: apiVersion and kind of the key's resource, field types), since storage knows no kinds.
 */
import { isPlainObject, type KubeObject } from '../api/index.js';
import { StorageError, type ObjectKey } from './store.js';

/**
 * A kind-level check of a stored body: undefined when it is an object of its key's kind, else why not. The
 * body has passed the structural checks (an object with apiVersion, kind and metadata naming the key).
 */
export type BodyCheck = (key: ObjectKey, object: KubeObject) => string | undefined;

/** kube's storage key as our keys read: `/configmaps/default/a`, `coordination.k8s.io/leases/ns/b`, `/nodes/n` */
export function storageKeyText(key: ObjectKey): string {
  return key.namespace ? `${key.resource}/${key.namespace}/${key.name}` : `${key.resource}/${key.name}`;
}

/**
 * An object whose stored body cannot be decoded as an object of its kind. The message is kube's StorageError
 * text for ErrCodeCorruptObj (code 7, ResourceVersion 0 as kube's Get reports it), naming the key; `rv` is the
 * revision of the body (an unsafe delete removes the row at it).
 */
export class CorruptObjectError extends StorageError {
  constructor(
    readonly key: ObjectKey,
    readonly rv: number,
    readonly reason: string,
  ) {
    super(
      `StorageError: corrupt object, Code: 7, Key: ${storageKeyText(key)}, ResourceVersion: 0, ` +
        `AdditionalErrorMsg: object not decodable revision=${rv}: ${reason}`,
    );
  }
}

/** kube's limit on the corrupt objects a list names (more are one "too many" cause) */
export const MAX_CORRUPT_LISTED = 100;

/** A list met corrupt objects: each one (at most MAX_CORRUPT_LISTED), and whether there were more. */
export class CorruptListError extends StorageError {
  constructor(
    readonly errors: readonly CorruptObjectError[],
    readonly truncated: boolean,
  ) {
    const lines = errors.map((e) => `\t${e.message}\n`).join('');
    const more = truncated ? '\ttoo many errors, the list is truncated\n' : '';
    super(
      `unable to transform or decode ${errors.length + (truncated ? 1 : 0)} objects: {\n${lines}${more}}`,
    );
  }

  static of(errors: readonly CorruptObjectError[]): CorruptListError {
    return new CorruptListError(errors.slice(0, MAX_CORRUPT_LISTED), errors.length > MAX_CORRUPT_LISTED);
  }
}

function jsonTypeOf(body: unknown): string {
  if (body === null) return 'null';
  if (Array.isArray(body)) return 'array';
  return typeof body === 'object' ? 'object' : typeof body;
}

/** Why a body is not an object stored under `key`, structurally (no kind knowledge), or undefined. */
export function structuralDefect(key: ObjectKey, body: unknown): string | undefined {
  if (!isPlainObject(body)) return `the stored body is a JSON ${jsonTypeOf(body)}, not an object`;
  // kube's decoder words for a body without its type (runtime's missingKindErr / missingVersionErr)
  if (typeof body.kind !== 'string' || body.kind === '') return "Object 'Kind' is missing";
  if (typeof body.apiVersion !== 'string' || body.apiVersion === '') return "Object 'apiVersion' is missing";
  const meta = body.metadata;
  if (!isPlainObject(meta)) return 'metadata is not an object';
  if (meta.name !== key.name)
    return `metadata.name ${JSON.stringify(meta.name ?? null)} does not match the key's name "${key.name}"`;
  const namespace = meta.namespace ?? '';
  if (namespace !== key.namespace)
    return `metadata.namespace ${JSON.stringify(namespace)} does not match the key's namespace "${key.namespace}"`;
  return undefined;
}

/** What reading a row gives: the object (resourceVersion set) or, for a corrupt body, the error and a stub. */
export interface DecodedRow {
  object: KubeObject;
  corrupt?: CorruptObjectError;
}

/**
 * The one decode step of stored bodies. A corrupt body is never handed on: its stand-in is a stub carrying
 * only the key and revision, so nothing that walks objects can trip over it.
 */
export function decodeRow(key: ObjectKey, rv: number, body: unknown, check?: BodyCheck): DecodedRow {
  const defect = structuralDefect(key, body) ?? check?.(key, body as KubeObject);
  if (defect === undefined) {
    const object = body as KubeObject;
    object.metadata.resourceVersion = String(rv);
    return { object };
  }
  const metadata: KubeObject['metadata'] = { name: key.name, resourceVersion: String(rv) };
  if (key.namespace) metadata.namespace = key.namespace;
  return {
    object: { apiVersion: '', kind: '', metadata },
    corrupt: new CorruptObjectError(key, rv, defect),
  };
}
