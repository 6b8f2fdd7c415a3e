/**
 * The admission port of the generic store: what a write is, as plugins see it, and the two stages every write
 * passes (mutating, then validating). The plugins live in modules/admission; the store only calls the port.
 */
import type { ApiError, KubeObject, RequestContext } from '../api/index.js';
import type { ObjectKey } from '../storage/index.js';
import type { ResourceDefinition } from './definition.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** A write that must fail unless another object exists and is not being deleted, checked as it commits. */
export interface Requirement {
  key: ObjectKey;
  missing: () => ApiError;
  deleting: () => ApiError;
}

export interface AdmissionAttributes {
  operation: Operation;
  def: ResourceDefinition;
  /** the object's namespace ('' for cluster-scoped kinds) and name */
  namespace: string;
  name: string;
  /** '' for the main resource */
  subresource: string;
  /** the new object (create, update; the Terminating object when a delete only marks it) */
  object?: KubeObject;
  /** the stored object (update, delete) */
  oldObject?: KubeObject;
  ctx: RequestContext;
  /** set by a plugin: the write commits only while this holds (create only) */
  requires?: Requirement;
}

export interface Admission {
  /** mutating plugins, in order: they may change `object` */
  admit(attributes: AdmissionAttributes): void | Promise<void>;
  /** validating plugins: they may only refuse */
  validate(attributes: AdmissionAttributes): void | Promise<void>;
}

export const admitEverything: Admission = { admit: () => undefined, validate: () => undefined };

/** Nest token of the Admission a GenericStore runs (modules/admission provides it). */
export const ADMISSION = Symbol('Admission');
