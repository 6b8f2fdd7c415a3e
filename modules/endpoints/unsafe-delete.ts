/**
 * The delete option `ignoreStoreReadErrorWithClusterBreakingPotential` as kube v1.32's delete handler treats
 * it (KEP-3926; spec part1 "Deletion of an object" rules 2-6). With the gate AllowUnsafeMalformedObjectDeletion
 * off the option is dropped, silently, before anything looks at it. With it on, it must come alone (kube's
 * ValidateDeleteOptions), is refused on deletecollection, and needs a second authorization: the verb
 * `unsafe-delete-ignore-read-errors` on the object, besides the `delete` the pipeline checked.
 */
import { ApiError, fieldError, type FieldError } from '../api/index.js';
import type { AuthorizerChain } from '../authorization/index.js';
import { requestAttributes } from '../authorization/index.js';
import { UNSAFE_DELETE_OPTION } from '../registry/index.js';
import { invalidOptions, type ResourceRequest } from './request.js';

export const UNSAFE_DELETE_VERB = 'unsafe-delete-ignore-read-errors';

/** what the delete handlers need to honour the option */
export interface UnsafeDeletion {
  /** feature gate AllowUnsafeMalformedObjectDeletion */
  enabled: boolean;
  authorizer: AuthorizerChain;
}

/** The delete options that matter here, as read from the query and the body. */
export interface UnsafeOptionFields {
  ignore?: boolean;
  dryRun: readonly string[];
  propagationPolicy?: unknown;
  orphanDependents?: boolean;
  gracePeriodSeconds?: unknown;
  preconditions?: unknown;
}

/** kube's ValidateDeleteOptions for the option: set to true, nothing else may be. */
export function unsafeOptionErrors(o: UnsafeOptionFields): FieldError[] {
  if (o.ignore !== true) return [];
  const errors: FieldError[] = [];
  const together = (field: string) =>
    errors.push(fieldError.invalid(UNSAFE_DELETE_OPTION, true, `cannot be set together with .${field}`));
  if (o.dryRun.length > 0) together('dryRun');
  if (o.propagationPolicy !== undefined) together('propagationPolicy');
  if (o.orphanDependents !== undefined) together('orphanDependents');
  if (o.gracePeriodSeconds !== undefined) together('gracePeriodSeconds');
  if (o.preconditions !== undefined) together('preconditions');
  return errors;
}

/** kube's refusal of the option on deletecollection (a 422 of its own, after the options' validation) */
export function collectionRefusal(): ApiError {
  return invalidOptions('DeleteOptions', [
    fieldError.invalid(
      UNSAFE_DELETE_OPTION,
      true,
      'is not allowed with DELETECOLLECTION, try again after removing the option',
    ),
  ]);
}

/**
 * kube's authorizeUnsafeDelete: the caller may `unsafe-delete-ignore-read-errors` the object, or the answer is
 * admission's Forbidden: `configmaps "a" is forbidden: not permitted to do "...", reason: <the authorizers'>`.
 */
export async function authorizeUnsafeDelete(authorizer: AuthorizerChain, r: ResourceRequest): Promise<void> {
  const attributes = { ...requestAttributes(r.ctx.user, r.info), verb: UNSAFE_DELETE_VERB };
  const verdict = await authorizer.decide(attributes);
  if (verdict.decision === 'allow') return;
  const why = verdict.evaluationError
    ? `error while checking permission for "${UNSAFE_DELETE_VERB}", ${verdict.evaluationError}`
    : `not permitted to do "${UNSAFE_DELETE_VERB}", reason: ${verdict.reason ?? ''}`;
  const { group, resource } = r.def;
  const qualified = group ? `${resource}.${group}` : resource;
  throw ApiError.forbidden(
    `${qualified} "${r.info.name}" is forbidden: ${why}`,
    { group, resource },
    r.info.name,
  );
}

/** kube's answer to an unsafe delete: the handler's Status, since the object could not be read. */
export function unsafeDeleteStatus(r: ResourceRequest): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    code: 200,
    details: { name: r.info.name, kind: r.def.kind },
  };
}
