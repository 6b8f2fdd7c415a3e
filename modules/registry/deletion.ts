/**
 * What a delete decides before it writes, as kube's generic store decides it: whether the preconditions hold,
 * and which of the garbage collector's finalizers the object must carry while it goes. `orphan` asks the
 * collector to take the object's uid out of its dependents' ownerReferences first; `foregroundDeletion` asks it
 * to delete the dependents first. Background deletion needs neither: the collector removes the dependents
 * after the owner is gone.
 */
import { ApiError, type GroupResource, type KubeObject } from '../api/index.js';
import type { GarbageCollectionPolicy, ResourceDefinition, Strategy } from './definition.js';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  /** the deprecated form of propagationPolicy (true: Orphan); a request may not set both */
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/**
 * Orphan or not, in kube's order of precedence: the request's options, then a GC finalizer the object
 * already has (set by its author or by an earlier delete), then the kind's default.
 */
function shouldOrphan(
  policy: GarbageCollectionPolicy,
  finalizers: string[],
  options: DeleteOptions,
): boolean {
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Orphan';
  const first = finalizers.find((f) => f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER);
  if (first) return first === ORPHAN_FINALIZER;
  return policy === 'OrphanDependents';
}

/** Foreground or not, with the same precedence; no kind defaults to foreground. */
function shouldDeleteDependents(
  policy: GarbageCollectionPolicy,
  finalizers: string[],
  options: DeleteOptions,
): boolean {
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Foreground';
  const first = finalizers.find((f) => f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER);
  return first === FOREGROUND_FINALIZER;
}

/**
 * The finalizers `obj` gets when deleted with `options`, or undefined when they stay as they are. The other
 * finalizers keep their order; the GC ones are dropped and put back at the end as asked, as kube does.
 * A repeated delete of a Terminating object may change them (orphan → foreground, or drop both).
 */
export function deletionFinalizers(
  def: ResourceDefinition,
  obj: KubeObject,
  options: DeleteOptions,
): string[] | undefined {
  const policy = def.garbageCollectionPolicy ?? 'DeleteDependents';
  const current = obj.metadata.finalizers ?? [];
  const next = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (shouldOrphan(policy, current, options)) next.push(ORPHAN_FINALIZER);
  if (shouldDeleteDependents(policy, current, options)) next.push(FOREGROUND_FINALIZER);
  const before = new Set(current);
  const after = new Set(next);
  const same = before.size === after.size && [...before].every((f) => after.has(f));
  return same ? undefined : next;
}

/**
 * kube's delete preconditions, as rest.BeforeDelete checks them before anything is written: the object must
 * still be the one (uid) and, when asked, at that revision. kube names the object by its kind there
 * (`kind`: the group and the kind, e.g. Pod, Widget.example.com).
 */
export function preconditionFailure(
  kind: GroupResource,
  current: KubeObject,
  rv: number,
  options: DeleteOptions,
): ApiError | undefined {
  const pre = options.preconditions;
  const { name, uid } = current.metadata;
  if (pre?.uid && pre.uid !== uid) {
    return ApiError.conflict(
      kind,
      name!,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== String(rv)) {
    return ApiError.conflict(
      kind,
      name!,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
    );
  }
  return undefined;
}

/** What a delete does about the grace period (kube's rest.BeforeDelete). */
export interface GracefulDeletion {
  /** the object gets (or keeps, shortened) a deletionTimestamp and deletionGracePeriodSeconds: write them */
  graceful: boolean;
  /** a graceful deletion is under way and this request does not shorten it: nothing to write */
  pending: boolean;
  /** the grace period the object is deleted with, when graceful (0: remove it now, finalizers allowing) */
  gracePeriodSeconds?: number;
}

const NOT_GRACEFUL: GracefulDeletion = { graceful: false, pending: false };

/** the last instant RFC 3339 (and Go's time encoding) can write: an absurd grace period ends there */
const LAST_MS = Date.parse('9999-12-31T23:59:59Z');

/** metav1.Time as kube serializes it: RFC 3339, whole seconds (within what it can write). */
function timestampAt(ms: number): string {
  const at = Math.min(Math.max(Math.floor(ms / 1000) * 1000, 0), LAST_MS);
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * kube's rest.BeforeDelete for `obj` (a copy, whose deletion metadata it sets when graceful). Only kinds whose
 * strategy has `gracePeriodSeconds` delete gracefully. An object already Terminating with a grace period may
 * only have it shortened (its deletionTimestamp moves back by the difference); one Terminating without a
 * grace period (or with 0) is not graceful any more: it goes as soon as its finalizers allow.
 */
export function beforeDelete(
  strategy: Strategy,
  obj: KubeObject,
  options: DeleteOptions,
  nowMs: number,
): GracefulDeletion {
  const meta = obj.metadata;
  // kube reads a negative grace period, asked or stored, as one second
  let requested = options.gracePeriodSeconds;
  if (requested !== undefined && requested < 0) requested = 1;
  if (typeof meta.deletionGracePeriodSeconds === 'number' && meta.deletionGracePeriodSeconds < 0)
    meta.deletionGracePeriodSeconds = 1;
  if (!strategy.gracePeriodSeconds) return NOT_GRACEFUL;
  if (meta.deletionTimestamp) {
    const current = meta.deletionGracePeriodSeconds;
    if (typeof current !== 'number' || current === 0) return NOT_GRACEFUL;
    if (requested === undefined || requested >= current) return { graceful: false, pending: true };
    const due = Date.parse(meta.deletionTimestamp) + (requested - current) * 1000;
    meta.deletionTimestamp = timestampAt(due);
    meta.deletionGracePeriodSeconds = requested;
    return { graceful: true, pending: false, gracePeriodSeconds: requested };
  }
  const period = strategy.gracePeriodSeconds(obj, requested);
  if (period === undefined) return NOT_GRACEFUL;
  meta.deletionTimestamp = timestampAt(nowMs + period * 1000);
  meta.deletionGracePeriodSeconds = period;
  // the start of a deletion counts as a change of the spec
  if (meta.generation) meta.generation += 1;
  return { graceful: true, pending: false, gracePeriodSeconds: period };
}
