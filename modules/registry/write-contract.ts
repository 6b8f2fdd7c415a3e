/**
 * What the generic store's verbs take and give back beside the object: write options, results, and the
 * updated-object function of the guaranteed-update loop (generic-store.ts).
 */
import type { KubeObject } from '../api/index.js';

export interface WriteOptions {
  /** 'status' or 'finalize' when the write comes through a subresource */
  subresource?: string;
  /** the field manager recorded in managedFields; unset: managedFields are left as they are (apply did them) */
  manager?: string;
  /** create the object when it does not exist, whatever the kind says (server-side apply) */
  forceAllowCreate?: boolean;
}

export interface WriteResult {
  object: KubeObject;
  /** 201 when a PUT or apply created the object */
  created: boolean;
}

export interface DeleteResult {
  /** the object, when it stays (Terminating) or the kind returns it */
  object: KubeObject;
  /** true when the object is gone from the store */
  removed: boolean;
  /** removed by the unsafe delete of a corrupt object: `object` is only its tombstone */
  unsafe?: boolean;
}

/**
 * kube's rest.UpdatedObjectInfo: the object an update writes, made from the stored one (undefined when none
 * is stored). Called again on every retry, so it must return a fresh object each time. An object carrying
 * metadata.resourceVersion is written only at that revision.
 */
export type UpdatedObject = (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;
