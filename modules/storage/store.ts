/**
 * The storage port: narrow and revision-based (ARCHITECTURE.md, "Module rules"). Everything above it speaks in objects and
 * resourceVersions; PostgreSQL details stay in the adapter and surface only as the typed errors below.
 */
import type { KubeObject } from '../api/index.js';
import type { BodyCheck, CorruptObjectError } from './corrupt.js';

export interface ObjectKey {
  /** `<group>/<resource>` */
  resource: string;
  /** '' for cluster-scoped objects */
  namespace: string;
  name: string;
}

export interface Stored {
  rv: number;
  /** the object with metadata.resourceVersion set */
  object: KubeObject;
}

export interface ListResult {
  /** the revision the snapshot was read at */
  rv: number;
  items: Stored[];
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface Change extends ObjectKey {
  rv: number;
  type: ChangeType;
  /** for a corrupt body: a stub with the key and revision only */
  object: KubeObject;
  /** the body cannot be decoded as an object of its kind (corrupt.ts) */
  corrupt?: CorruptObjectError;
}

export interface ChangePage {
  changes: Change[];
  /** every change up to this revision is in `changes` or before `afterRv` (revisions without a change were
   * taken by writes that failed) */
  rv: number;
}

/** A write batch this replica committed: all the changes in (base, rv]. */
export interface LocalCommit {
  base: number;
  rv: number;
  changes: Change[];
}

export interface CreateOptions {
  /**
   * create only if this object exists and is not being deleted (no metadata.deletionTimestamp); checked in the
   * write's own transaction
   */
  requires?: ObjectKey;
}

export interface Snapshot {
  /** the revision every object below was read at */
  rv: number;
  /** a corrupt body's item is a stub with its error */
  items: (ObjectKey & Stored & { corrupt?: CorruptObjectError })[];
}

export interface Store {
  /** a corrupt body fails with CorruptObjectError */
  get(key: ObjectKey): Promise<Stored | undefined>;
  /**
   * every object of a resource (in one namespace when given) in key order (namespace, name), read at one
   * snapshot; corrupt bodies fail it with CorruptListError, naming each
   */
  list(resource: string, namespace?: string): Promise<ListResult>;
  create(key: ObjectKey, object: KubeObject, options?: CreateOptions): Promise<Stored>;
  /** replace the object if its stored revision is still `expectedRv` */
  update(key: ObjectKey, object: KubeObject, expectedRv: number): Promise<Stored>;
  /**
   * remove the object if its stored revision is still `expectedRv`; returns it at the deletion revision.
   * `tombstone`: the DELETED change carries this body instead of the stored one (a corrupt object's unsafe
   * delete: its stored body cannot be read)
   */
  delete(key: ObjectKey, expectedRv: number, tombstone?: KubeObject): Promise<Stored>;
  /** the newest committed revision */
  currentRv(): Promise<number>;
  /** change-log entries after `afterRv`, oldest first, and how far they reach */
  changes(afterRv: number, limit: number): Promise<ChangePage>;
  /** every object of every resource, read at one snapshot (the watch cache's starting point) */
  snapshot(): Promise<Snapshot>;
  /**
   * the revision just before the oldest change-log entry younger than `ageMs` (history kept from there on); not
   * before the revision a restored database starts its own history at (older ones are compacted)
   */
  historyStart(ageMs: number): Promise<number>;
  /** drop change-log entries older than `ageMs`, keeping at least the newest one */
  pruneChanges(ageMs: number): Promise<number>;
  /**
   * Resolves when the backend answers a trivial request; fails at once (UnavailableError) while it is known to
   * be unreachable, without trying it (readiness: a replica whose storage is away is not ready)
   */
  ping(): Promise<void>;
  /**
   * Calls `onChange` whenever a write commits: with the changes themselves for this replica's own writes, and
   * without them (a hint: read `changes`) for another replica's.
   */
  subscribe(onChange: (local?: LocalCommit) => void): Promise<() => Promise<void>>;
  /** the kind-level check every body read passes after the structural one (the registry's; corrupt.ts) */
  setBodyCheck(check: BodyCheck): void;
}

export class StorageError extends Error {}

export class NotFoundError extends StorageError {
  constructor(readonly key: ObjectKey) {
    super(`${key.resource} ${key.namespace}/${key.name} not found`);
  }
}

export class AlreadyExistsError extends StorageError {
  constructor(readonly key: ObjectKey) {
    super(`${key.resource} ${key.namespace}/${key.name} already exists`);
  }
}

/** the object changed since the revision the writer expected */
export class ConflictError extends StorageError {
  constructor(readonly key: ObjectKey) {
    super(`${key.resource} ${key.namespace}/${key.name} was modified`);
  }
}

/** a create's required object (CreateOptions.requires) does not exist */
export class RequiredObjectMissingError extends StorageError {
  constructor(readonly key: ObjectKey) {
    super(`required ${key.resource} ${key.namespace}/${key.name} not found`);
  }
}

/** a create's required object (CreateOptions.requires) is being deleted: it has metadata.deletionTimestamp */
export class RequiredObjectDeletingError extends StorageError {
  constructor(readonly key: ObjectKey) {
    super(`required ${key.resource} ${key.namespace}/${key.name} is being deleted`);
  }
}

/**
 * the backing database could not be reached or failed; never the client's fault. The message is ours: the
 * driver's error, when there is one, is the `cause` (for logs), never shown to clients.
 */
export class UnavailableError extends StorageError {
  constructor(message = 'the storage backend is unavailable', options?: ErrorOptions) {
    super(message, options);
  }
}

/** the backing database did not answer in time (the write may or may not have been applied) */
export class StorageTimeoutError extends StorageError {
  constructor(message = 'the storage backend did not answer in time', options?: ErrorOptions) {
    super(message, options);
  }
}
