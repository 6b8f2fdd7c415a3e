/**
 * The generic store: kube's verbs for any kind, driven by its ResourceDefinition and Strategy.
 * Requests arrive decoded (see the pipeline); this file is the storage side of create/update/delete/get/list.
 */
import { nowTimestamp, type KubeList, type KubeObject } from '../api/index.js';
import { ApiError, type FieldError, type GroupResource } from '../api/index.js';
import { RequiredObjectDeletingError, type ObjectKey, type Store, type Stored } from '../storage/index.js';
import { groupVersion, type ResourceDefinition, type Strategy } from './definition.js';
import { deepEqual, fillForCreate, fillForUpdate, pendingFinalizers } from './object-meta.js';
import { recordManagedFields } from './managed-fields.js';
import { storageKey } from './registry.js';
import { MODIFIED_MESSAGE, toApiError } from './store-errors.js';
import type { Selection } from './selection.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation/index.js';

export interface WriteOptions {
  dryRun: boolean;
  /** 'status' or 'finalize' when the write comes through a subresource */
  subresource?: string;
  /** the field manager recorded in managedFields; unset: managedFields are left as they are (apply did them) */
  manager?: string;
}

export interface DeleteOptions extends WriteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface WriteResult {
  object: KubeObject;
  /** 201 when a PUT created the object */
  created: boolean;
}

export interface DeleteResult {
  /** the object, when it stays (Terminating) or the kind returns it */
  object: KubeObject;
  /** true when the object is gone from the store */
  removed: boolean;
}

/** unconditional updates retry on conflict this many times before giving up with 409 */
const RETRIES = 5;

export class GenericStore {
  constructor(private readonly store: Store) {}

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
      items,
    };
  }

  async create(
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
    def.strategy.defaults?.(obj);
    if (options.manager !== undefined) recordManagedFields(def, undefined, obj, options.manager, undefined);
    fillForCreate(def, obj);
    this.check(
      def,
      obj,
      validateObjectMeta(obj.metadata, { namespaced: def.scope === 'Namespaced', nameRule: def.nameRule }),
      def.strategy.validate?.(obj),
    );
    def.strategy.canonicalize?.(obj);
    const name = obj.metadata.name!;
    const key = this.key(def, namespace, name);
    const activeNamespace = def.scope === 'Namespaced' ? key.namespace : undefined;
    const requires =
      activeNamespace === undefined
        ? undefined
        : { resource: '/namespaces', namespace: '', name: activeNamespace };
    if (options.dryRun) {
      if (await this.read(def, namespace, name)) throw ApiError.alreadyExists(this.gr(def), name);
      if (activeNamespace !== undefined) await this.requireActiveNamespace(def, activeNamespace, name);
      return obj;
    }
    try {
      return (await this.store.create(key, obj, { requires })).object;
    } catch (e) {
      throw toApiError(e, this.gr(def), name);
    }
  }

  async update(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    obj: KubeObject,
    options: WriteOptions,
  ): Promise<WriteResult> {
    this.setNamespace(def, obj, namespace);
    if (obj.metadata.name !== name) {
      throw ApiError.badRequest(
        `the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${name})`,
      );
    }
    const requested = obj.metadata.resourceVersion;
    const strategy = this.strategyFor(def, options.subresource);
    for (let attempt = 0; ; attempt++) {
      const current = await this.read(def, namespace, name);
      if (!current) {
        if (!def.allowCreateOnUpdate) throw ApiError.notFound(this.gr(def), name);
        if (requested) throw ApiError.notFound(this.gr(def), name);
        return { object: await this.create(def, namespace, structuredClone(obj), options), created: true };
      }
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
      const next = structuredClone(obj);
      next.metadata.resourceVersion = String(current.rv);
      strategy.defaults?.(next);
      if (options.manager !== undefined) {
        recordManagedFields(def, current.object, next, options.manager, options.subresource);
      }
      fillForUpdate(def, strategy, next, current.object);
      this.validateUpdate(def, strategy, next, current.object, !options.subresource);
      strategy.canonicalize?.(next);
      try {
        return { object: await this.commitUpdate(def, next, current, options), created: false };
      } catch (e) {
        const conflict = e instanceof ApiError && e.reason === 'Conflict';
        if (!conflict || requested || attempt >= RETRIES) throw e;
      }
    }
  }

  /** Writes a validated new state; an unchanged object is not written, and a finalized deletion completes. */
  async commitUpdate(
    def: ResourceDefinition,
    next: KubeObject,
    current: Stored,
    options: WriteOptions,
  ): Promise<KubeObject> {
    next.metadata.resourceVersion = String(current.rv);
    if (deepEqual(next, current.object)) return current.object;
    const key = this.key(def, next.metadata.namespace ?? '', next.metadata.name!);
    const finished = next.metadata.deletionTimestamp && pendingFinalizers(def, next).length === 0;
    if (options.dryRun) return next;
    try {
      const updated = await this.store.update(key, next, current.rv);
      if (finished) await this.store.delete(key, updated.rv);
      return updated.object;
    } catch (e) {
      throw toApiError(e, this.gr(def), key.name);
    }
  }

  /** A subresource write is checked by its own strategy only (kube's status strategies), plus metadata rules. */
  validateUpdate(
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
      strategy.validate?.(next),
      strategy.validateUpdate?.(next, old),
    );
  }

  private strategyFor(def: ResourceDefinition, subresource: string | undefined): Strategy {
    if (!subresource) return def.strategy;
    return def.subresourceStrategies?.[subresource] ?? {};
  }

  async delete(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    options: DeleteOptions,
  ): Promise<DeleteResult> {
    for (let attempt = 0; ; attempt++) {
      const current = await this.read(def, namespace, name);
      if (!current) throw ApiError.notFound(this.gr(def), name);
      this.checkPreconditions(def, current, options);
      try {
        return await this.deleteCurrent(def, current, options);
      } catch (e) {
        const conflict = e instanceof ApiError && e.reason === 'Conflict';
        if (!conflict || options.preconditions?.resourceVersion || attempt >= RETRIES) throw e;
      }
    }
  }

  /** First delete: with finalizers pending, the object only turns Terminating; without, it is removed. */
  private async deleteCurrent(
    def: ResourceDefinition,
    current: Stored,
    options: DeleteOptions,
  ): Promise<DeleteResult> {
    const obj = current.object;
    const key = this.key(def, obj.metadata.namespace ?? '', obj.metadata.name!);
    if (pendingFinalizers(def, obj).length > 0 || this.terminatesFirst(def, obj)) {
      if (obj.metadata.deletionTimestamp) return { object: obj, removed: false };
      const next = structuredClone(obj);
      next.metadata.deletionTimestamp = nowTimestamp();
      next.metadata.deletionGracePeriodSeconds = 0;
      def.strategy.prepareForDelete?.(next);
      return { object: await this.commitUpdate(def, next, current, options), removed: false };
    }
    if (options.dryRun) return { object: obj, removed: true };
    try {
      return { object: (await this.store.delete(key, current.rv)).object, removed: true };
    } catch (e) {
      throw toApiError(e, this.gr(def), key.name);
    }
  }

  private terminatesFirst(def: ResourceDefinition, obj: KubeObject): boolean {
    return (def.strategy.finalizers?.(obj).length ?? 0) > 0;
  }

  async deleteCollection(
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
        const result = await this.delete(def, item.metadata.namespace ?? '', item.metadata.name!, options);
        items.push(result.object);
      } catch (e) {
        // gone in the meantime: someone else deleted it, which is what was asked
        if (!(e instanceof ApiError && e.code === 404)) throw e;
      }
    }
    return { ...list, items };
  }

  private checkPreconditions(def: ResourceDefinition, current: Stored, options: DeleteOptions): void {
    const pre = options.preconditions;
    const name = current.object.metadata.name!;
    if (pre?.uid && pre.uid !== current.object.metadata.uid) {
      throw ApiError.conflict(
        this.gr(def),
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.object.metadata.uid}`,
      );
    }
    if (pre?.resourceVersion && pre.resourceVersion !== String(current.rv)) {
      throw ApiError.conflict(
        this.gr(def),
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.rv}`,
      );
    }
  }

  private async read(def: ResourceDefinition, namespace: string, name: string): Promise<Stored | undefined> {
    try {
      return await this.store.get(this.key(def, namespace, name));
    } catch (e) {
      throw toApiError(e, this.gr(def), name);
    }
  }

  private async requireActiveNamespace(
    def: ResourceDefinition,
    namespace: string,
    name: string,
  ): Promise<void> {
    const ns = await this.store
      .get({ resource: '/namespaces', namespace: '', name: namespace })
      .catch((e) => {
        throw toApiError(e, this.gr(def), name);
      });
    if (!ns) throw ApiError.notFound({ group: '', resource: 'namespaces' }, namespace);
    if (ns.object.metadata.deletionTimestamp) {
      const key = { resource: '/namespaces', namespace: '', name: namespace };
      throw toApiError(new RequiredObjectDeletingError(key), this.gr(def), name);
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
