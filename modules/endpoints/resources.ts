/** The resource verbs: one handler per kube verb, each a short walk through the generic store. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isPlainObject } from '../api/index.js';
import type { RequestInfo } from '../api/index.js';
import { ApiError } from '../api/index.js';
import { decodeBody, negotiateInput } from '../codec/index.js';
import { decodeCbor } from '../codec/index.js';
import { decodeDeleteOptions } from '../codec/index.js';
import type { ResourceDefinition } from '../registry/index.js';
import type { DeleteOptions, GenericStore, WriteOptions } from '../registry/index.js';
import { fieldManagerMaxLength, managerName } from '../apply/index.js';
import { parseSelection } from '../registry/index.js';
import { decodeRequestObject, parseFieldValidation } from './decode.js';
import { patchObject } from './patch.js';
import type { ReadHandlers } from './reads.js';
import { addWarnings, send, type Output } from './respond.js';

export type Query = Record<string, string | undefined>;

export interface ResourceRequest {
  info: RequestInfo;
  def: ResourceDefinition;
  query: Query;
  req: FastifyRequest;
  reply: FastifyReply;
  out: Output;
  /** CBOR request bodies are read (feature gate CBORServingAndStorage) */
  cbor?: boolean;
}

function dryRun(query: Query): boolean {
  const v = query.dryRun;
  if (v === undefined || v === '') return false;
  if (v === 'All') return true;
  throw ApiError.badRequest(`Invalid dryRun value: unsupported dry run value "${v}", must be "All"`);
}

/** dryRun, the subresource written through, and the field manager recorded in managedFields */
function writeOptions(r: ResourceRequest): WriteOptions {
  const fieldManager = r.query.fieldManager;
  if (fieldManager !== undefined && Buffer.byteLength(fieldManager) > fieldManagerMaxLength) {
    throw ApiError.badRequest(`fieldManager: Too long: may not be more than ${fieldManagerMaxLength} bytes`);
  }
  return {
    dryRun: dryRun(r.query),
    subresource: r.info.subresource || undefined,
    manager: managerName(fieldManager, r.req.headers['user-agent']),
  };
}

function bodyOf(req: FastifyRequest): Buffer | undefined {
  return req.body instanceof Buffer ? req.body : undefined;
}

export class ResourceHandlers {
  constructor(
    private readonly generic: GenericStore,
    private readonly reads: ReadHandlers,
    /** called after a delete that leaves the object Terminating (lets controllers act at once) */
    private readonly onTerminating: () => void = () => undefined,
  ) {}

  async handle(r: ResourceRequest): Promise<unknown> {
    const { info, def } = r;
    if (info.subresource) return this.subresource(r);
    if (!def.verbs.includes(info.verb as never)) {
      throw ApiError.methodNotAllowed('the server does not allow this method on the requested resource');
    }
    switch (info.verb) {
      case 'get':
        return this.reads.get(r);
      case 'list':
        return this.reads.list(r);
      case 'watch':
        return this.reads.watch(r);
      case 'create':
        return this.create(r);
      case 'update':
        return this.update(r);
      case 'patch':
        return this.patch(r);
      case 'delete':
        return this.delete(r);
      case 'deletecollection': {
        const options = this.deleteOptions(r);
        const list = await this.generic.deleteCollection(
          def,
          info.namespace,
          this.selection(r),
          options,
          info.version,
        );
        return send(r.reply, 200, list, r.out);
      }
      default:
        throw ApiError.methodNotAllowed('the server does not allow this method on the requested resource');
    }
  }

  private selection(r: ResourceRequest) {
    return parseSelection(r.def, r.query.labelSelector, r.query.fieldSelector);
  }

  private async create(r: ResourceRequest): Promise<unknown> {
    const { info, def } = r;
    if (info.name)
      throw ApiError.methodNotAllowed('the server does not allow this method on the requested resource');
    const validation = parseFieldValidation(r.query.fieldValidation);
    const { object, warnings } = decodeRequestObject(
      def,
      info.version,
      r.req.headers['content-type'],
      bodyOf(r.req),
      validation,
      r.cbor,
    );
    const created = await this.generic.create(def, info.namespace, object, writeOptions(r));
    addWarnings(r.reply, warnings);
    return send(r.reply, 201, created, r.out);
  }

  /** PUT of the object or of a subresource (whose strategy decides what of the object it may change). */
  private async update(r: ResourceRequest): Promise<unknown> {
    const { info, def } = r;
    const validation = parseFieldValidation(r.query.fieldValidation);
    const { object, warnings } = decodeRequestObject(
      def,
      info.version,
      r.req.headers['content-type'],
      bodyOf(r.req),
      validation,
      r.cbor,
    );
    const options = writeOptions(r);
    const result = await this.generic.update(def, info.namespace, info.name, object, options);
    addWarnings(r.reply, warnings);
    return send(r.reply, result.created ? 201 : 200, result.object, r.out);
  }

  private deleteOptions(r: ResourceRequest): DeleteOptions {
    const body = bodyOf(r.req);
    let fromBody: Record<string, unknown> = {};
    if (body && body.length > 0) {
      const format = negotiateInput(r.req.headers['content-type'], r.cbor);
      const decoded =
        format === 'protobuf'
          ? decodeDeleteOptions(body)
          : format === 'cbor'
            ? decodeCbor(body)
            : decodeBody(body, format);
      if (!isPlainObject(decoded)) throw ApiError.badRequest('the body must be a DeleteOptions object');
      fromBody = decoded;
    }
    const pick = (name: string) => r.query[name] ?? fromBody[name];
    const grace = pick('gracePeriodSeconds');
    const policy = pick('propagationPolicy');
    if (policy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(String(policy))) {
      throw ApiError.invalid('DeleteOptions', '', '', [
        {
          type: 'NotSupported',
          field: 'propagationPolicy',
          value: policy,
          detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
        },
      ]);
    }
    const dry =
      r.query.dryRun !== undefined
        ? dryRun(r.query)
        : Array.isArray(fromBody.dryRun) && fromBody.dryRun.includes('All');
    const pre = isPlainObject(fromBody.preconditions) ? fromBody.preconditions : undefined;
    if (grace !== undefined && !Number.isInteger(Number(grace))) {
      throw ApiError.badRequest(`invalid gracePeriodSeconds: ${String(grace)}`);
    }
    return {
      dryRun: dry,
      gracePeriodSeconds: grace === undefined ? undefined : Number(grace),
      propagationPolicy: policy === undefined ? undefined : String(policy),
      preconditions: pre
        ? { uid: pre.uid as string | undefined, resourceVersion: pre.resourceVersion as string | undefined }
        : undefined,
    };
  }

  private async delete(r: ResourceRequest): Promise<unknown> {
    const { info, def } = r;
    const result = await this.generic.delete(def, info.namespace, info.name, this.deleteOptions(r));
    if (!result.removed) {
      this.onTerminating();
      return send(r.reply, 200, result.object, r.out);
    }
    return send(
      r.reply,
      200,
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: {
          name: info.name,
          group: def.group || undefined,
          kind: def.resource,
          uid: result.object.metadata.uid,
        },
      },
      r.out,
    );
  }

  private async subresource(r: ResourceRequest): Promise<unknown> {
    const { info, def } = r;
    if (!def.subresources?.includes(info.subresource)) throw ApiError.pathNotFound();
    if (info.verb === 'get')
      return send(r.reply, 200, await this.generic.get(def, info.namespace, info.name), r.out);
    if (info.verb === 'patch' && info.subresource === 'status') return this.patch(r);
    if (info.verb !== 'update') {
      throw ApiError.methodNotAllowed('the server does not allow this method on the requested resource');
    }
    return this.update(r);
  }

  private async patch(r: ResourceRequest): Promise<unknown> {
    const validation = parseFieldValidation(r.query.fieldValidation);
    const options = writeOptions(r);
    const result = await patchObject(this.generic, r, options, validation);
    addWarnings(r.reply, result.warnings);
    return send(r.reply, result.created ? 201 : 200, result.object, r.out);
  }
}
