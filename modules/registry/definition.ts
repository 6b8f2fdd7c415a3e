/**
 * A kind is data: a ResourceDefinition plus a Strategy. The generic store, discovery, OpenAPI (and later Table,
 * Protobuf, strategic merge and server-side apply) all read the same definition. Nothing generic switches on a
 * kind name; built-in kinds and CRD-defined kinds are the same thing at run time.
 */
import type { FieldError } from '../api/index.js';
import { groupVersion, type KubeObject, type RequestContext } from '../api/index.js';
import type { Schema } from '../api/index.js';

export type { Schema };

export type Scope = 'Namespaced' | 'Cluster';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const allVerbs: Verb[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description: string;
  priority: number;
  /** JSONPath (simple `.a.b` form) into the object */
  jsonPath: string;
  /**
   * Computed cell for built-in columns a JSONPath cannot express (counts, ages, joined fields), as kube's
   * printers compute them. When set, the Table encoder uses it instead of `jsonPath`.
   */
  cell?(obj: KubeObject, nowMs: number): string | number | boolean | null;
}

/**
 * A kind's own rules. Write hooks get the request's context (who writes, dry run, warnings to add); hooks that
 * only read the object do not.
 */
export interface Strategy {
  /** Fill defaults on a decoded object (runs on create and update, before validation). */
  defaults?(obj: KubeObject, ctx: RequestContext): void;
  /** Clear or set fields the server owns on create (e.g. status, generation). */
  prepareForCreate?(obj: KubeObject, ctx: RequestContext): void;
  /** Same for update; `old` is the stored object. */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): void;
  /** Kind-specific validation of a new object (object metadata is validated generically). */
  validate?(obj: KubeObject, ctx: RequestContext): FieldError[];
  /**
   * Kind-specific validation of an update (immutability rules), in addition to `validate` unless
   * `updateReplacesValidate` says it checks the whole object itself.
   */
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): FieldError[];
  /**
   * true: on update only `validateUpdate` runs (kube's ValidateUpdate), for kinds whose update rules differ
   * from their create rules beyond immutability (custom resources ratchet: unchanged invalid values pass).
   */
  updateReplacesValidate?: boolean;
  /**
   * Normalize the object after validation passed, just before it is stored (create and update), e.g. fields
   * derived from a name that generateName only produced after prepareForCreate ran.
   */
  canonicalize?(obj: KubeObject, ctx: RequestContext): void;
  /** Changes made when an object turns Terminating (e.g. a Namespace's status.phase). */
  prepareForDelete?(obj: KubeObject, ctx: RequestContext): void;
  /**
   * kube's CheckGracefulDelete: the grace period in seconds a delete gives this live object, from the one
   * asked (`requested`, undefined when the request names none; never negative), or undefined when it goes at
   * once. A kind with this hook is deleted gracefully: its objects stay Terminating until the grace period is
   * cut to 0 by a later delete (a Pod's node agent does it). Absent: deleted at once, finalizers allowing.
   */
  gracePeriodSeconds?(obj: KubeObject, requested: number | undefined): number | undefined;
  /** Kind-specific finalizers beyond metadata.finalizers (e.g. a Namespace's spec.finalizers). */
  finalizers?(obj: KubeObject): string[];
  /**
   * Fields beyond metadata.name/metadata.namespace that fieldSelector may name, with their values, read from
   * the stored object; for a kind stored with another (`storedWith`), from the object as this kind shows it.
   */
  selectableFields?(obj: KubeObject): Record<string, string>;
}

/** A Kubernetes group/version/kind, e.g. the replacement of a deprecated version. */
export interface GroupVersionKindRef {
  group: string;
  version: string;
  kind: string;
}

/**
 * Lifecycle of one served version of a kind (kube's prerelease-lifecycle tags), releases written "1.x". A
 * version without one follows the rules its name implies: stable on, alpha off, beta off.
 */
export interface VersionLifecycle {
  /** release the version appeared in: a beta version introduced before 1.22 is on by default */
  introduced?: string;
  /** from this release on, requests are answered with a deprecation Warning */
  deprecated?: string;
  /** from this release on, the version is no longer served */
  removed?: string;
  /** what clients should use instead (named in the Warning) */
  replacement?: GroupVersionKindRef;
  /** deprecated now whatever the release, with this Warning (a CRD version's `deprecated`) */
  warning?: string;
}

/**
 * Where the `scale` subresource (an autoscaling/v1 Scale) reads and writes its numbers in the object: simple
 * `.a.b` paths, as a CRD's `subresources.scale` names them.
 */
export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** What a version of a kind may declare for itself; absent fields fall back to the definition's own. */
export interface VersionData {
  schema?: Schema;
  printerColumns?: PrinterColumn[];
  subresources?: string[];
  scale?: ScalePaths;
  /** each version of a CRD validates with its own schema */
  strategy?: Strategy;
  subresourceStrategies?: Record<string, Strategy>;
}

export interface ResourceDefinition {
  /** API group; '' is the core group */
  group: string;
  /** served versions, preferred first */
  versions: string[];
  /** storage version */
  storageVersion: string;
  /** lifecycle of versions that are not plain stable ones, by version */
  lifecycle?: Record<string, VersionLifecycle>;
  /** plural resource name used in URLs */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  scope: Scope;
  shortNames?: string[];
  categories?: string[];
  verbs: Verb[];
  /** subresources served beside the main resource, e.g. ['status'] */
  subresources?: string[];
  /** the `scale` subresource's paths, when `subresources` has it */
  scale?: ScalePaths;
  /**
   * The body of a subresource that is another kind than the resource (serviceaccounts/token: TokenRequest), by
   * subresource; its `x-pgkube-ref` is its OpenAPI component.
   */
  subresourceSchemas?: Record<string, Schema>;
  /** name rule for metadata.name */
  nameRule: 'dns1123Subdomain' | 'dns1123Label' | 'dns1035Label' | 'pathSegment';
  /** true when the kind tracks metadata.generation (bumped on changes outside metadata/status) */
  tracksGeneration?: boolean;
  /** true when PUT on a missing object creates it (kube: AllowCreateOnUpdate) */
  allowCreateOnUpdate?: boolean;
  /**
   * false when an update must carry metadata.resourceVersion (kube: AllowUnconditionalUpdate; 409 Conflict
   * "metadata.resourceVersion must be specified for an update" otherwise). Absent means true.
   */
  allowUnconditionalUpdate?: boolean;
  /** structural schema of the whole object (apiVersion, kind, metadata, ...) */
  schema: Schema;
  /** description of the kind (OpenAPI, kubectl explain) */
  description: string;
  printerColumns?: PrinterColumn[];
  strategy: Strategy;
  /**
   * Strategies for writes through a subresource (e.g. namespaces/status, namespaces/finalize). A hook absent
   * there is skipped (the main strategy's hooks do not run for subresource writes).
   */
  subresourceStrategies?: Record<string, Strategy>;
  /**
   * Per-version schema, printer columns and subresources (a CRD's versions may differ in each). Readers take
   * a version's view through `versionView` (registry.find returns it), never this map directly.
   */
  perVersion?: Record<string, VersionData>;
  /**
   * 'virtual': objects of this kind are never stored; a create is answered by the handler its owning module
   * gives `VirtualKinds` (TokenReview, SelfSubjectReview, the access reviews). Discovery and OpenAPI list it
   * as any kind; storage, watch and the namespace controller never see it. Absent: stored.
   */
  storage?: 'virtual';
  /**
   * The kind has no rows of its own: its objects are another kind's (kube's cohabiting resources, e.g.
   * events.k8s.io Events are the core Events), read and written through a pure conversion pair. Both kinds
   * share one storage key, so one watch cache feed and one resourceVersion sequence.
   */
  storedWith?: SharedStorage;
  /**
   * Objects decode as kube's unstructured ones (custom resources): unknown fields are pruned, values of the
   * wrong type are left to the schema's validation instead of failing the decode.
   */
  untyped?: boolean;
  /**
   * Objects of this kind as `version` has them, for kinds whose versions differ in what they store (a CRD's
   * versions: conversion None rewrites apiVersion, Webhook asks the CRD's webhook). Objects are stored in
   * `storageVersion` and converted on the way in and out (`storedAs`, `servedAs`), lists and watch batches
   * in one call. Absent: every version reads the stored object as it is.
   */
  convert?(objects: KubeObject[], version: string): Promise<KubeObject[]>;
  /** set on a version's view (`versionView`): the version it serves */
  servedVersion?: string;
  /** its versions are served as it declares them (a CRD's `served`): --runtime-config does not apply */
  declaredServing?: boolean;
  /**
   * What a delete without a propagation policy does to the object's dependents (kube's
   * DefaultGarbageCollectionPolicy): absent is 'DeleteDependents' (background). 'OrphanDependents' adds the
   * `orphan` finalizer; 'Unsupported' (kube's Events) never gets the garbage collector's finalizers.
   */
  garbageCollectionPolicy?: GarbageCollectionPolicy;
  /**
   * kube's ReturnDeletedObject: a delete that removes the object answers the object as it was removed
   * instead of a Success Status (Pods).
   */
  returnDeletedObject?: boolean;
}

/** Where a kind's objects live when they are another kind's (`storedWith`), and how they look there. */
export interface SharedStorage {
  /** the kind whose rows these are (its group, resource and storage version) */
  definition: ResourceDefinition;
  /** a stored object (the other kind's) as this kind shows it */
  fromStored(obj: KubeObject): KubeObject;
  /** an object of this kind as the other kind stores it */
  toStored(obj: KubeObject): KubeObject;
}

export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

export { groupVersion };
