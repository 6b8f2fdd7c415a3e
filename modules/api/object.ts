/** The shape every stored object shares. Kinds are data, so objects are plain JSON values. */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number | null;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface KubeList {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: KubeObject[];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `<Kind>List` body (its items are read with the kind's schema) */
export function isListBody(body: Record<string, unknown>): boolean {
  return Array.isArray(body.items) && typeof body.kind === 'string' && body.kind.endsWith('List');
}

/** RFC 3339 with second precision, as kube serializes metav1.Time. */
let stampedSecond = NaN;
let stamp = '';

export function nowTimestamp(): string {
  // every write stamps times; formatting a Date is dear next to reading the clock
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampedSecond) {
    stampedSecond = second;
    stamp = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  return stamp;
}
