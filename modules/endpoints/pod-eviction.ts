/**
 * POST pods/<name>/eviction (policy/v1 Eviction), kube's EvictionREST: deletes the pod with the Eviction's
 * deleteOptions. PodDisruptionBudgets are not served here, so no budget can refuse an eviction (kube's answer
 * for a pod no budget covers): every eviction the delete allows goes through.
 */
import { ApiError, isPlainObject, type FieldError } from '../api/index.js';
import type { DeleteOptions, GenericStore } from '../registry/index.js';
import { dryRunErrors, invalidOptions, queryValues, writeOptions, type ResourceRequest } from './request.js';
import { addWarnings } from './respond.js';
import { sendCreatedStatus, subresourceBody } from './subresource-body.js';

const policies = ['Foreground', 'Background', 'Orphan'];

/** The Eviction's deleteOptions, checked as a delete's are (kube's ValidateDeleteOptions). */
function deleteOptionsOf(raw: unknown): { options: DeleteOptions; dryRun: string[] } {
  const o = isPlainObject(raw) ? raw : {};
  const errors: FieldError[] = [];
  const policy = typeof o.propagationPolicy === 'string' ? o.propagationPolicy : undefined;
  const orphan = typeof o.orphanDependents === 'boolean' ? o.orphanDependents : undefined;
  if (orphan !== undefined && policy !== undefined)
    errors.push({
      type: 'Invalid',
      field: 'propagationPolicy',
      value: policy,
      detail: 'orphanDependents and deletionPropagation cannot be both set',
    });
  if (policy !== undefined && !policies.includes(policy))
    errors.push({
      type: 'NotSupported',
      field: 'propagationPolicy',
      value: policy,
      detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
    });
  const dryRun = Array.isArray(o.dryRun) ? o.dryRun.map(String) : [];
  errors.push(...dryRunErrors(dryRun));
  if (errors.length > 0) throw invalidOptions('DeleteOptions', errors);
  const pre = isPlainObject(o.preconditions) ? o.preconditions : undefined;
  return {
    dryRun,
    options: {
      gracePeriodSeconds: typeof o.gracePeriodSeconds === 'number' ? o.gracePeriodSeconds : undefined,
      propagationPolicy: policy,
      orphanDependents: orphan,
      preconditions: pre && {
        uid: typeof pre.uid === 'string' ? pre.uid : undefined,
        resourceVersion: typeof pre.resourceVersion === 'string' ? pre.resourceVersion : undefined,
      },
    },
  };
}

export async function createEviction(generic: GenericStore, r: ResourceRequest): Promise<unknown> {
  const { info, def } = r;
  writeOptions(r);
  const { object: eviction, warnings } = subresourceBody(r, 'policy', 'Eviction');
  if (eviction.metadata.name !== info.name)
    throw ApiError.badRequest('name in URL does not match name in Eviction object');
  await generic.admitSubresourceCreate(r.ctx, def, info.namespace, info.name, 'eviction', eviction);
  const { options, dryRun } = deleteOptionsOf(eviction.deleteOptions);
  // kube's propagateDryRun: the request's dryRun and the Eviction's must agree when both are given
  const requestDryRun = queryValues(r.req.query, 'dryRun');
  if (requestDryRun.length > 0 && dryRun.length > 0 && requestDryRun.join() !== dryRun.join())
    throw ApiError.badRequest('DryRun in DeleteOptions and CreateOptions must match');
  r.ctx.dryRun ||= dryRun.length > 0;
  await generic.delete(r.ctx, def, info.namespace, info.name, options);
  addWarnings(r.reply, [...warnings, ...r.ctx.warnings]);
  return sendCreatedStatus(r);
}
