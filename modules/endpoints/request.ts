/** What every resource handler gets: the request's context, its kind and the negotiated answer form. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiError,
  fieldError,
  type FieldError,
  type RequestContext,
  type RequestInfo,
} from '../api/index.js';
import { fieldManagerMaxLength, managerName } from '../apply/index.js';
import type { ResourceDefinition, WriteOptions } from '../registry/index.js';
import { parseSelection } from '../registry/index.js';
import type { Output } from './respond.js';

export type Query = Record<string, string | undefined>;

export interface ResourceRequest {
  ctx: RequestContext;
  info: RequestInfo;
  /** the addressed kind, as its requested version has it */
  def: ResourceDefinition;
  query: Query;
  req: FastifyRequest;
  reply: FastifyReply;
  out: Output;
  /** CBOR request bodies are read (feature gate CBORServingAndStorage) */
  cbor?: boolean;
}

/** kube's options kinds (meta.k8s.io), named in a 422 about their query parameters. */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

const optionsKinds: Record<string, OptionsKind> = {
  create: 'CreateOptions',
  update: 'UpdateOptions',
  patch: 'PatchOptions',
  delete: 'DeleteOptions',
  deletecollection: 'DeleteOptions',
};

/** Every value of a query parameter, in order (the pipeline's flat query keeps the first only). */
export function queryValues(raw: unknown, name: string): string[] {
  const v = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[name] : undefined;
  if (v === undefined) return [];
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

/** Go's %#v of a []string, as kube's field errors show one. */
function goStrings(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** `dryRun` field errors (kube's ValidateDryRun): each value must be "All". */
export function dryRunErrors(values: readonly string[]): FieldError[] {
  if (values.every((v) => v === 'All')) return [];
  return [{ type: 'NotSupported', field: 'dryRun', detail: `${goStrings(values)}: supported values: "All"` }];
}

/** kube's ValidateFieldManager: at most 128 bytes, printable characters only. */
export function fieldManagerErrors(fieldManager: string | undefined): FieldError[] {
  if (fieldManager === undefined) return [];
  const errors: FieldError[] = [];
  if (Buffer.byteLength(fieldManager) > fieldManagerMaxLength)
    errors.push(fieldError.tooLong('fieldManager', fieldManagerMaxLength));
  const at = fieldManager.search(/[^\P{C}]|[^\P{Z} ]/u);
  if (at >= 0)
    errors.push(fieldError.invalid('fieldManager', fieldManager, `invalid characters at index ${at}`));
  return errors;
}

/** 422 about the options of a request: `CreateOptions.meta.k8s.io "" is invalid: dryRun: ...`. */
export function invalidOptions(kind: OptionsKind, errors: FieldError[]): ApiError {
  const invalid = ApiError.invalid(kind, 'meta.k8s.io', '', errors);
  return new ApiError(422, 'Invalid', `${kind}.meta.k8s.io${invalid.message.slice(kind.length)}`, {
    group: 'meta.k8s.io',
    kind,
    causes: invalid.details?.causes,
  });
}

/** The request's dry run: no `dryRun` is none, each value must be "All" (else 422, as kube). */
export function parseDryRun(values: readonly string[], kind: OptionsKind): boolean {
  const errors = dryRunErrors(values);
  if (errors.length > 0) throw invalidOptions(kind, errors);
  return values.length > 0;
}

const fieldValidationValues = ['', 'Ignore', 'Strict', 'Warn'];

/** kube's ValidateFieldValidation: empty, Ignore, Strict or Warn. */
export function fieldValidationErrors(value: string | undefined): FieldError[] {
  if (value === undefined || fieldValidationValues.includes(value)) return [];
  return [fieldError.notSupported('fieldValidation', value, fieldValidationValues)];
}

/**
 * The write's options checked as kube's Validate{Create,Update,Patch}Options check them, before the body is
 * read (`extra`: the patch's own errors, first); then dryRun and the field manager go into the context, and
 * the subresource written through and the manager out.
 */
export function writeOptions(r: ResourceRequest, extra: FieldError[] = []): WriteOptions {
  const fieldManager = r.query.fieldManager;
  const dryRun = queryValues(r.req.query, 'dryRun');
  const errors = [
    ...extra,
    ...fieldManagerErrors(fieldManager),
    ...dryRunErrors(dryRun),
    ...fieldValidationErrors(r.query.fieldValidation),
  ];
  if (errors.length > 0) throw invalidOptions(optionsKinds[r.info.verb] ?? 'UpdateOptions', errors);
  r.ctx.dryRun = dryRun.length > 0;
  r.ctx.fieldManager = managerName(fieldManager, r.req.headers['user-agent']);
  return { subresource: r.info.subresource || undefined, manager: r.ctx.fieldManager };
}

export function bodyOf(r: ResourceRequest): Buffer | undefined {
  return r.req.body instanceof Buffer ? r.req.body : undefined;
}

export function selectionOf(r: ResourceRequest) {
  return parseSelection(r.def, r.query.labelSelector, r.query.fieldSelector);
}
