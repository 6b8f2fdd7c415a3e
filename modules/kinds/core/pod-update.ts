/**
 * What an update may change of a pod's spec, as kube v1.32's ValidatePodUpdate decides: container and init
 * container images, activeDeadlineSeconds (set, or lowered), tolerations (added, or their tolerationSeconds
 * changed), a negative terminationGracePeriodSeconds raised to 1, and scheduling gates removed. Everything
 * else answers kube's Forbidden on `spec`.
 */
import { isDeepStrictEqual } from 'node:util';
import { fieldError, type FieldError, type KubeObject } from '../../api/index.js';
import { listAt, objAt, strAt, type Obj } from '../values.js';
import { validateTolerations } from './pod-validation.js';

const maxInt32 = 2147483647;

export const podUpdateForbidden =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,' +
  '`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** Go compares typed structs: an absent list, map or string is its zero value. */
function goValue(v: unknown): unknown {
  if (v === undefined || v === null || v === '' || v === false || v === 0) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(goValue);
  if (typeof v === 'object') {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v as Obj)) {
      const g = goValue(x);
      if (g !== undefined) out[k] = g;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

const sameValue = (a: unknown, b: unknown): boolean => isDeepStrictEqual(goValue(a), goValue(b));

function validateContainerUpdates(next: unknown, old: unknown, path: string): FieldError[] {
  const now = listAt(next);
  if (now.length !== listAt(old).length)
    return [fieldError.forbidden(path, 'pod updates may not add or remove containers')];
  return now.flatMap((c, i) =>
    strAt(objAt(c).image) === '' ? [fieldError.required(`${path}[${i}].image`)] : [],
  );
}

function validateActiveDeadline(next: Obj, old: Obj): FieldError[] {
  const path = 'spec.activeDeadlineSeconds';
  if (!isSet(next.activeDeadlineSeconds)) {
    return isSet(old.activeDeadlineSeconds)
      ? [fieldError.invalid(path, null, 'must not update from a positive integer to nil value')]
      : [];
  }
  const value = Number(next.activeDeadlineSeconds);
  if (value < 0 || value > maxInt32)
    return [fieldError.invalid(path, value, `must be between 0 and ${maxInt32}, inclusive`)];
  if (isSet(old.activeDeadlineSeconds) && Number(old.activeDeadlineSeconds) < value)
    return [fieldError.invalid(path, value, 'must be less than or equal to previous value')];
  return [];
}

/** Every old toleration must still be there; only its tolerationSeconds may differ. */
function validateOnlyAddedTolerations(next: unknown, old: unknown): FieldError[] {
  const now = listAt(next).map(objAt);
  for (const before of listAt(old).map(objAt)) {
    const kept = now.some((t) => sameValue({ ...before, tolerationSeconds: t.tolerationSeconds }, t));
    if (!kept)
      return [
        fieldError.forbidden(
          'spec.tolerations',
          'existing toleration can not be modified except its tolerationSeconds',
        ),
      ];
  }
  return validateTolerations(next, 'spec.tolerations');
}

function validateSchedulingGates(next: unknown, old: unknown): FieldError[] {
  const before = new Set(listAt(old).map((g) => strAt(objAt(g).name)));
  for (const gate of listAt(next)) {
    const name = strAt(objAt(gate).name);
    if (!before.has(name))
      return [
        fieldError.forbidden(
          'spec.schedulingGates',
          `only deletion is allowed, but found new scheduling gate '${name}'`,
        ),
      ];
  }
  return [];
}

/** Top-level spec fields that differ, for the message (kube prints a full diff there). */
function changedFields(a: Obj, b: Obj): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !sameValue(a[k], b[k])).sort();
}

export function validatePodUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const next = objAt(obj.spec);
  const before = objAt(old.spec);
  const errors = [
    ...validateContainerUpdates(next.containers, before.containers, 'spec.containers'),
    ...validateContainerUpdates(next.initContainers, before.initContainers, 'spec.initContainers'),
    ...validateActiveDeadline(next, before),
  ];
  if (errors.length > 0) return errors;
  // the old spec with what may change taken from the new one must be the new spec
  const munged: Obj = structuredClone(before);
  for (const kind of ['containers', 'initContainers']) {
    const now = listAt(next[kind]);
    listAt(munged[kind]).forEach((c, i) => {
      objAt(c).image = objAt(now[i]).image;
    });
  }
  munged.activeDeadlineSeconds = next.activeDeadlineSeconds;
  errors.push(...validateOnlyAddedTolerations(next.tolerations, before.tolerations));
  munged.tolerations = next.tolerations;
  const oldGrace = before.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && next.terminationGracePeriodSeconds === 1)
    munged.terminationGracePeriodSeconds = 1;
  errors.push(...validateSchedulingGates(next.schedulingGates, before.schedulingGates));
  munged.schedulingGates = next.schedulingGates;
  const changed = changedFields(munged, next);
  if (changed.length > 0)
    errors.push(
      fieldError.forbidden(
        'spec',
        `${podUpdateForbidden}\n  changed: ${changed.map((f) => `spec.${f}`).join(', ')}`,
      ),
    );
  return errors;
}
