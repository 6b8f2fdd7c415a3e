/** The resource verbs: one handler per kube verb, each a short walk through the generic store. */
import { ApiError } from '../api/index.js';
import type { GenericStore, VirtualKinds } from '../registry/index.js';
import { remove, removeCollection } from './deletes.js';
import { patch } from './patch.js';
import type { ReadHandlers } from './reads.js';
import type { ResourceRequest } from './request.js';
import { send } from './respond.js';
import { getScale, patchScale, updateScale } from './scale.js';
import { create, update } from './writes.js';
import type { UnsafeDeletion } from './unsafe-delete.js';

const notAllowed = () =>
  ApiError.methodNotAllowed('the server does not allow this method on the requested resource');

/** POST to a subresource that is its own kind (serviceaccounts/token), by subresource. */
export type SubresourceCreate = (r: ResourceRequest) => Promise<unknown>;

export class ResourceHandlers {
  constructor(
    private readonly generic: GenericStore,
    private readonly reads: ReadHandlers,
    /** called after a delete that leaves the object Terminating (lets controllers act at once) */
    private readonly onTerminating: () => void = () => undefined,
    /** the create answers of virtual kinds (stored nowhere; their modules provide them) */
    private readonly virtual?: VirtualKinds,
    private readonly creates: Readonly<Record<string, SubresourceCreate>> = {},
    /** the delete option ignoreStoreReadErrorWithClusterBreakingPotential (its gate, the second check) */
    private readonly unsafe?: UnsafeDeletion,
  ) {}

  async handle(r: ResourceRequest): Promise<unknown> {
    const { info, def } = r;
    if (info.subresource) return this.subresource(r);
    if (!def.verbs.includes(info.verb as never)) throw notAllowed();
    if (def.storage === 'virtual') return this.virtualCreate(r);
    switch (info.verb) {
      case 'get':
        return this.reads.get(r);
      case 'list':
        return this.reads.list(r);
      case 'watch':
        return this.reads.watch(r);
      case 'create':
        return create(this.generic, r);
      case 'update':
        return update(this.generic, r);
      case 'patch':
        return patch(this.generic, r);
      case 'delete':
        return remove(this.generic, r, this.onTerminating, this.unsafe);
      case 'deletecollection':
        return removeCollection(this.generic, r, this.unsafe);
      default:
        throw notAllowed();
    }
  }

  /** A virtual kind serves create only, and only once its owning module gave the answer. */
  private async virtualCreate(r: ResourceRequest): Promise<unknown> {
    const answer = this.virtual?.createOf(r.def);
    if (r.info.verb !== 'create' || !answer) throw notAllowed();
    return create(this.generic, r, answer);
  }

  private async subresource(r: ResourceRequest): Promise<unknown> {
    const { info, def } = r;
    if (!def.subresources?.includes(info.subresource)) throw ApiError.pathNotFound();
    // a subresource that only creates (serviceaccounts/token) answers nothing else
    const creates = Object.hasOwn(this.creates, info.subresource)
      ? this.creates[info.subresource]
      : undefined;
    if (creates) {
      if (info.verb !== 'create') throw notAllowed();
      return creates(r);
    }
    if (info.subresource === 'scale') return this.scale(r);
    if (info.verb === 'get')
      return send(r.reply, 200, await this.generic.get(def, info.namespace, info.name), r.out);
    if (info.verb === 'patch' && info.subresource === 'status') return patch(this.generic, r);
    if (info.verb !== 'update') throw notAllowed();
    return update(this.generic, r);
  }

  private scale(r: ResourceRequest): Promise<unknown> {
    if (r.info.verb === 'get') return getScale(this.generic, r);
    if (r.info.verb === 'update') return updateScale(this.generic, r);
    if (r.info.verb === 'patch') return patchScale(this.generic, r);
    throw notAllowed();
  }
}
