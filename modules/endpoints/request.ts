/** What every resource handler gets: the request's context, its kind and the negotiated answer form. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type RequestContext, type RequestInfo } from '../api/index.js';
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

export function parseDryRun(value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  if (value === 'All') return true;
  throw ApiError.badRequest(`Invalid dryRun value: unsupported dry run value "${value}", must be "All"`);
}

/** dryRun and the field manager go into the context; the subresource written through and the manager out. */
export function writeOptions(r: ResourceRequest): WriteOptions {
  const fieldManager = r.query.fieldManager;
  if (fieldManager !== undefined && Buffer.byteLength(fieldManager) > fieldManagerMaxLength) {
    throw ApiError.badRequest(`fieldManager: Too long: may not be more than ${fieldManagerMaxLength} bytes`);
  }
  r.ctx.dryRun = parseDryRun(r.query.dryRun);
  r.ctx.fieldManager = managerName(fieldManager, r.req.headers['user-agent']);
  return { subresource: r.info.subresource || undefined, manager: r.ctx.fieldManager };
}

export function bodyOf(r: ResourceRequest): Buffer | undefined {
  return r.req.body instanceof Buffer ? r.req.body : undefined;
}

export function selectionOf(r: ResourceRequest) {
  return parseSelection(r.def, r.query.labelSelector, r.query.fieldSelector);
}
