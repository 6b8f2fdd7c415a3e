/**
 * The generic store: kube's verbs for any kind, driven by its ResourceDefinition and Strategy, with the
 * request's context handed to strategy hooks and admission. Requests arrive decoded (modules/endpoints).
 *
 * Every write to an existing object goes through one guaranteed-update loop: read the object, make the new
 * state from it, write it at the revision read; when another writer committed in between, read again and
 * remake. Update, patch, apply, subresources and delete all use it.
 */
import { nowTimestamp, type KubeList, type KubeObject, type RequestContext } from '../api/index.js';
import { ApiError, type FieldError, type GroupResource } from '../api/index.js';
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  RequiredObjectDeletingError,
  RequiredObjectMissingError,
  type ObjectKey,
  type Store,
  type Stored,
} from '../storage/index.js';
import { admitEverything, type Admission, type AdmissionAttributes } from './admission.js';
import { groupVersion, type ResourceDefinition, type Strategy } from './definition.js';
import { deepEqual, fillForCreate, fillForUpdate, pendingFinalizers } from './object-meta.js';
import { beforeDelete, deletionFinalizers, preconditionFailure, type DeleteOptions } from './deletion.js';
import type { DeleteResult, UpdatedObject, WriteOptions, WriteResult } from './write-contract.js';
import { recordManagedFields } from './managed-fields.js';
import { storageKey } from './registry.js';
import { convertsStored, servedAs, servedOne, storedAs } from './version-view.js';
import { MODIFIED_MESSAGE, toApiError } from './store-errors.js';
import { deleteCorrupt } from './corrupt-delete.js';
import type { Selection } from './selection.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation/index.js';

/** writes that lost a race with another writer are remade this many times before answering 409 */
const RETRIES = 5;

export class GenericStore {
  constructor(
    private readonly store: Store,
    private readonly admission: Admission = admitEverything,
  ) {}

  key(def: ResourceDefinition, namespace: string, name: string): ObjectKey {
    return { resource: storageKey(def), namespace: def.scope === 'Namespaced' ? namespace : '', name };
  }

  gr(def: ResourceDefinition): GroupResource {
    return { group: def.group, resource: def.resource };
  }

  async get(def: ResourceDefinition, namespace: string, name: string): Promise<KubeObject> {
    const found = await this.read(def, namespace, name);
    if (!found) throw ApiError.notFound(this.gr(def), name);
    return found.object;
  }

  async list(
    def: ResourceDefinition,
    namespace: string,
    selection: Selection,
    version: string,
  ): Promise<KubeList> {
    const result = await this.store
      .list(storageKey(def), def.scope === 'Namespaced' && namespace ? namespace : undefined)
      .catch((e) => {
        throw toApiError(e, this.gr(def), '');
      });
    const items: KubeObject[] = [];
    for (const { object } of result.items) if (selection.matches(object)) items.push(object);
    return {
      apiVersion: groupVersion(def.group, version),
      kind: def.listKind,
      metadata: { resourceVersion: String(result.rv) },
      items: await servedAs(def, items),
    };
  }

  async create(
    ctx: RequestContext,
    def: ResourceDefinition,
    namespace: string,
    obj: KubeObject,
    options: WriteOptions,
  ): Promise<KubeObject> {
    try {
      return await this.insert(ctx, def, namespace, obj, options);
    } catch (e) {
      throw toApiError(e, this.gr(def), obj.metadata.name ?? '');
    }
  }

  /**
   * A create of a virtual kind, which stores nothing: admission runs as for a stored create, then `answer`
   * makes the response from the admitted object. A requirement a plugin attaches (e.g. "the namespace
   * exists") is checked at once, since there is no commit to check it in.
   */
  async createVirtual(
    ctx: RequestContext,
    def: ResourceDefinition,
    namespace: string,
    obj: KubeObject,
    answer: (obj: KubeObject) => Promise<KubeObject>,
  ): Promise<KubeObject> {
    this.setNamespace(def, obj, namespace);
    const attributes = this.attributes(ctx, 'CREATE', def, obj, '');
    await this.admission.admit(attributes);
    await this.admission.validate(attributes);
    const requires = attributes.requires;
    if (requires) {
      const found = await this.store.get(requires.key).catch((e: unknown) => {
        throw toApiError(e, this.gr(def), obj.metadata.name ?? '');
      });
      if (!found) throw requires.missing();
      if (found.object.metadata.deletionTimestamp) throw requires.deleting();
    }
    return answer(obj);
  }

  /** kube's Update: PUT, patch, apply and subresource writes, made from the stored object by `updated`. */
  async update(
    ctx: RequestContext,
    def: ResourceDefinition,
    namespace: string,
    name: string,
    updated: UpdatedObject,
    options: WriteOptions,
  ): Promise<WriteResult> {
    const strategy = this.strategyFor(def, options.subresource);
    return this.guaranteedUpdate(def, namespace, name, async (current) => {
      if (!current) {
        if (!def.allowCreateOnUpdate && !options.forceAllowCreate)
          throw ApiError.notFound(this.gr(def), name);
        const obj = await updated(undefined);
        // a write conditional on a revision of an object that does not exist (apply: the create refuses it)
        if (obj.metadata.resourceVersion && !options.forceAllowCreate)
          throw ApiError.notFound(this.gr(def), name);
        return { object: await this.insert(ctx, def, namespace, obj, options), created: true };
      }
      const next = await updated(current.object);
      this.setNamespace(def, next, namespace);
      const requested = next.metadata.resourceVersion;
      if (!requested && def.allowUnconditionalUpdate === false) {
        throw ApiError.conflict(
          this.gr(def),
          name,
          'metadata.resourceVersion must be specified for an update',
        );
      }
      if (requested && requested !== String(current.rv)) {
        throw ApiError.conflict(this.gr(def), name, MODIFIED_MESSAGE);
      }
      next.metadata.resourceVersion = String(current.rv);
      strategy.defaults?.(next, ctx);
      if (options.manager !== undefined) {
        recordManagedFields(def, current.object, next, options.manager, options.subresource);
      }
      const attributes = this.attributes(ctx, 'UPDATE', def, next, options.subresource ?? '', current.object);
      await this.admission.admit(attributes);
      fillForUpdate(def, strategy, next, current.object, ctx);
      this.validateUpdate(ctx, def, strategy, next, current.object, !options.subresource);
      await this.admission.validate(attributes);
      strategy.canonicalize?.(next, ctx);
      return { object: await this.commitUpdate(ctx, def, next, current), created: false };
    });
  }

  async delete(
    ctx: RequestContext,
    def: ResourceDefinition,
    namespace: string,
    name: string,
    options: DeleteOptions,
  ): Promise<DeleteResult> {
    return this.guaranteedUpdate(def, namespace, name, async (current) => {
      if (!current) throw ApiError.notFound(this.gr(def), name);
      const kind = { group: def.group, resource: def.kind };
      const failed = preconditionFailure(kind, current.object, current.rv, options);
      if (failed) throw failed;
      return this.deleteCurrent(ctx, def, current, options);
    });
  }

  /**
   * A delete with `ignoreStoreReadErrorWithClusterBreakingPotential` (corrupt-delete.ts): the normal delete
   * when it works, else the corrupt object's row removed unread. Refused (422) when the object is not corrupt.
   */
  async deleteCorrupt(
    ctx: RequestContext,
    def: ResourceDefinition,
    namespace: string,
    name: string,
    options: DeleteOptions,
  ): Promise<DeleteResult> {
    const key = this.key(def, namespace, name);
    const result = await deleteCorrupt(this.store, def, key, () =>
      this.delete(ctx, def, namespace, name, options),
    );
    if ('normal' in result) return result.normal;
    const object = result.object ?? { metadata: { name } };
    return { object, removed: true, unsafe: true };
  }

  async deleteCollection(
    ctx: RequestContext,
    def: ResourceDefinition,
    namespace: string,
    selection: Selection,
    options: DeleteOptions,
    version: string,
  ): Promise<KubeList> {
    const list = await this.list(def, namespace, selection, version);
    const items: KubeObject[] = [];
    for (const item of list.items) {
      try {
        const result = await this.delete(
          ctx,
          def,
          item.metadata.namespace ?? '',
          item.metadata.name!,
          options,
        );
        items.push(result.object);
      } catch (e) {
        // gone in the meantime: someone else deleted it, which is what was asked
        if (!(e instanceof ApiError && e.code === 404)) throw e;
      }
    }
    return { ...list, items };
  }

  /**
   * The one retry loop: `attempt` gets the stored object (undefined when none) and writes at its revision.
   * A write that lost a race (the object changed, or appeared, after it was read) is remade from a new read;
   * anything else, and a race lost RETRIES times, is the answer.
   */
  private async guaranteedUpdate<T>(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    attempt: (current: Stored | undefined) => Promise<T>,
  ): Promise<T> {
    for (let i = 0; ; i++) {
      const current = await this.read(def, namespace, name);
      try {
        return await attempt(current);
      } catch (e) {
        const raced = e instanceof ConflictError || e instanceof AlreadyExistsError;
        if (!raced || i >= RETRIES) throw toApiError(e, this.gr(def), name);
      }
    }
  }

  /** Create without answering: storage errors stay typed, so a racing update can tell and retry. */
  private async insert(
    ctx: RequestContext,
    def: ResourceDefinition,
    namespace: string,
    obj: KubeObject,
    options: WriteOptions,
  ): Promise<KubeObject> {
    if (obj.metadata.resourceVersion) {
      throw ApiError.badRequest('resourceVersion should not be set on objects to be created');
    }
    this.setNamespace(def, obj, namespace);
    // kube defaults while decoding, before ownership is recorded: defaulted fields belong to the writer
    def.strategy.defaults?.(obj, ctx);
    if (options.manager !== undefined) recordManagedFields(def, undefined, obj, options.manager, undefined);
    const attributes = this.attributes(ctx, 'CREATE', def, obj, '');
    await this.admission.admit(attributes);
    fillForCreate(def, obj, ctx);
    attributes.name = obj.metadata.name ?? '';
    this.check(
      def,
      obj,
      validateObjectMeta(obj.metadata, { namespaced: def.scope === 'Namespaced', nameRule: def.nameRule }),
      def.strategy.validate?.(obj, ctx),
    );
    await this.admission.validate(attributes);
    def.strategy.canonicalize?.(obj, ctx);
    const key = this.key(def, namespace, obj.metadata.name!);
    if (ctx.dryRun) {
      if (await this.store.get(key)) throw new AlreadyExistsError(key);
      return obj;
    }
    const requires = attributes.requires;
    try {
      const stored = await this.store.create(key, await storedAs(def, obj), { requires: requires?.key });
      return await servedOne(def, stored.object);
    } catch (e) {
      if (e instanceof RequiredObjectMissingError && requires) throw requires.missing();
      if (e instanceof RequiredObjectDeletingError && requires) throw requires.deleting();
      throw e;
    }
  }

  /** Writes a validated new state; an unchanged object is not written, and a finalized deletion completes. */
  private async commitUpdate(
    ctx: RequestContext,
    def: ResourceDefinition,
    next: KubeObject,
    current: Stored,
  ): Promise<KubeObject> {
    next.metadata.resourceVersion = String(current.rv);
    if (deepEqual(next, current.object)) return current.object;
    const key = this.key(def, next.metadata.namespace ?? '', next.metadata.name!);
    if (ctx.dryRun) return next;
    const updated = await this.store.update(key, await storedAs(def, next), current.rv);
    // another deleter may have removed it first: gone is what was asked
    if (deletesNow(def, next)) await this.store.delete(key, updated.rv).catch(ignoreNotFound);
    return servedOne(def, updated.object);
  }

  /** A subresource write is checked by its own strategy only (kube's status strategies), plus metadata rules. */
  private validateUpdate(
    ctx: RequestContext,
    def: ResourceDefinition,
    strategy: Strategy,
    next: KubeObject,
    old: KubeObject,
    full: boolean,
  ): void {
    const namespaced = def.scope === 'Namespaced';
    this.check(
      def,
      next,
      full ? validateObjectMeta(next.metadata, { namespaced, nameRule: def.nameRule }) : [],
      validateObjectMetaUpdate(next.metadata, old.metadata),
      strategy.updateReplacesValidate ? [] : strategy.validate?.(next, ctx),
      strategy.validateUpdate?.(next, old, ctx),
    );
  }

  /**
   * Admission of a create through a subresource that is a kind of its own and stores nothing itself
   * (pods/eviction, serviceaccounts/token): the handler acts once the plugins let it.
   */
  async admitSubresourceCreate(
    ctx: RequestContext,
    def: ResourceDefinition,
    namespace: string,
    name: string,
    subresource: string,
    obj: KubeObject,
  ): Promise<void> {
    const attributes: AdmissionAttributes = {
      operation: 'CREATE',
      def,
      namespace,
      name,
      subresource,
      object: obj,
      ctx,
    };
    await this.admission.admit(attributes);
    await this.admission.validate(attributes);
  }

  private strategyFor(def: ResourceDefinition, subresource: string | undefined): Strategy {
    if (!subresource) return def.strategy;
    return def.subresourceStrategies?.[subresource] ?? {};
  }

  /**
   * kube's delete decisions in order: a graceful deletion under way that this request does not shorten leaves
   * the object as it is; the GC finalizers change as the propagation policy asks; a graceful delete writes
   * the deletionTimestamp and grace period (removing the object too when the period is 0 and nothing is
   * pending); otherwise, with finalizers pending, the object only turns Terminating, and without, it is removed.
   */
  private async deleteCurrent(
    ctx: RequestContext,
    def: ResourceDefinition,
    current: Stored,
    options: DeleteOptions,
  ): Promise<DeleteResult> {
    const obj = current.object;
    const key = this.key(def, obj.metadata.namespace ?? '', obj.metadata.name!);
    const attributes = this.attributes(ctx, 'DELETE', def, undefined, '', obj);
    await this.admission.admit(attributes);
    await this.admission.validate(attributes);
    const next = structuredClone(obj);
    const grace = beforeDelete(def.strategy, next, options, Date.now());
    if (grace.pending) return { object: obj, removed: false };
    const finalizers = deletionFinalizers(def, obj, options);
    if (finalizers) next.metadata.finalizers = finalizers;
    if (next.metadata.finalizers?.length === 0) delete next.metadata.finalizers;
    const held = pendingFinalizers(def, next).length > 0 || this.terminatesFirst(def, next);
    if (grace.graceful) {
      if (!obj.metadata.deletionTimestamp) def.strategy.prepareForDelete?.(next, ctx);
      // with no grace left and nothing pending, the write is followed by the removal (commitUpdate)
      const object = await this.commitUpdate(ctx, def, next, current);
      return { object, removed: deletesNow(def, next) };
    }
    if (held) {
      if (obj.metadata.deletionTimestamp && !finalizers) return { object: obj, removed: false };
      if (!obj.metadata.deletionTimestamp) {
        next.metadata.deletionTimestamp = nowTimestamp();
        next.metadata.deletionGracePeriodSeconds = 0;
        // kube counts the start of a deletion as a change of the object's spec
        if (next.metadata.generation) next.metadata.generation += 1;
        def.strategy.prepareForDelete?.(next, ctx);
      }
      return { object: await this.commitUpdate(ctx, def, next, current), removed: false };
    }
    if (ctx.dryRun) return { object: obj, removed: true };
    return { object: await servedOne(def, (await this.store.delete(key, current.rv)).object), removed: true };
  }

  private terminatesFirst(def: ResourceDefinition, obj: KubeObject): boolean {
    return (def.strategy.finalizers?.(obj).length ?? 0) > 0;
  }

  private attributes(
    ctx: RequestContext,
    operation: AdmissionAttributes['operation'],
    def: ResourceDefinition,
    object: KubeObject | undefined,
    subresource: string,
    oldObject?: KubeObject,
  ): AdmissionAttributes {
    const meta = (object ?? oldObject)!.metadata;
    return {
      operation,
      def,
      namespace: def.scope === 'Namespaced' ? (meta.namespace ?? '') : '',
      name: meta.name ?? '',
      subresource,
      object,
      oldObject,
      ctx,
    };
  }

  private async read(def: ResourceDefinition, namespace: string, name: string): Promise<Stored | undefined> {
    try {
      const found = await this.store.get(this.key(def, namespace, name));
      return found && convertsStored(def) ? { ...found, object: await servedOne(def, found.object) } : found;
    } catch (e) {
      throw toApiError(e, this.gr(def), name);
    }
  }

  private setNamespace(def: ResourceDefinition, obj: KubeObject, namespace: string): void {
    if (def.scope === 'Cluster') {
      delete obj.metadata.namespace;
      return;
    }
    if (!obj.metadata.namespace) obj.metadata.namespace = namespace;
    else if (namespace && obj.metadata.namespace !== namespace) {
      throw ApiError.badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
  }

  private check(def: ResourceDefinition, obj: KubeObject, ...lists: (FieldError[] | undefined)[]): void {
    const errors = lists.flatMap((l) => l ?? []);
    if (errors.length > 0) {
      const name = obj.metadata.name || obj.metadata.generateName || '';
      throw ApiError.invalid(def.kind, def.group, name, errors);
    }
  }
}

/**
 * kube's ShouldDeleteDuringUpdate: a Terminating object with no finalizers left and no grace period to wait
 * out (none, or 0) goes when it is written. One still in its grace period stays, whoever writes it (a node
 * agent's status), until a delete cuts the period to 0.
 */
function deletesNow(def: ResourceDefinition, obj: KubeObject): boolean {
  const { deletionTimestamp, deletionGracePeriodSeconds } = obj.metadata;
  if (!deletionTimestamp || pendingFinalizers(def, obj).length > 0) return false;
  return !deletionGracePeriodSeconds;
}

function ignoreNotFound(e: unknown): undefined {
  if (e instanceof NotFoundError) return undefined;
  throw e;
}
