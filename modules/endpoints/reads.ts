/** get, list and watch: read by resourceVersion from PostgreSQL (most recent) or from the watch cache. */
import type { KubeList, KubeObject } from '../api/index.js';
import { ApiError, queryFlag } from '../api/index.js';
import {
  parseIncludeObject,
  partialObjectMetadata,
  partialObjectMetadataList,
  toTable,
} from '../codec/index.js';
import { convertsStored, corruptionFailure, groupVersion, servedAs, servedOne } from '../registry/index.js';
import type { GenericStore } from '../registry/index.js';
import { storageKey } from '../registry/index.js';
import { parseSelection, type Selection } from '../registry/index.js';
import { CorruptListError, type Store } from '../storage/index.js';
import {
  awaitRevision,
  continueExpired,
  decodeContinue,
  encodeContinue,
  getSemantics,
  listSemantics,
  tooOld,
  watchStart,
  Watcher,
  type WatchCache,
} from '../watch/index.js';
import { send } from './respond.js';
import type { WatchLabels } from '../metrics/index.js';
import { watchEncoding, type Presentation } from './watch-encoding.js';
import type { ResourceRequest } from './request.js';
import { watchTimeoutMs } from './timeout.js';

/** kube's --min-request-timeout default */
const DEFAULT_MIN_REQUEST_TIMEOUT_S = 1800;
/** setTimeout's most (about 24.8 days); a longer or unlimited watch timeout waits this long */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class ReadHandlers {
  constructor(
    private readonly generic: GenericStore,
    private readonly store: Store,
    private readonly cache: WatchCache,
    private readonly watchEvents?: (labels: WatchLabels) => { n: number },
    /** --min-request-timeout: a watch without timeoutSeconds lasts a random time in [min, 2·min) */
    private readonly minRequestTimeoutS = DEFAULT_MIN_REQUEST_TIMEOUT_S,
  ) {}

  async get(r: ResourceRequest): Promise<unknown> {
    const { def, info } = r;
    const semantics = getSemantics(r.query.resourceVersion);
    if (semantics.kind === 'mostRecent')
      return this.sendObject(r, await this.generic.get(def, info.namespace, info.name));
    if (semantics.kind === 'notOlderThan') await awaitRevision(this.cache, semantics.rv);
    const namespace = def.scope === 'Namespaced' ? info.namespace : '';
    const corrupt = this.cache.corruptAt(storageKey(def), namespace, info.name);
    if (corrupt) throw corruptionFailure(corrupt, this.generic.gr(def));
    const found = this.cache.get(storageKey(def), namespace, info.name);
    if (!found) throw ApiError.notFound(this.generic.gr(def), info.name);
    return this.sendObject(r, await servedOne(def, found));
  }

  async list(r: ResourceRequest): Promise<unknown> {
    const { def, info } = r;
    const selection = this.selection(r);
    const semantics = listSemantics(r.query);
    const limit = r.query.limit ? Number(r.query.limit) : 0;
    if (!Number.isInteger(limit) || limit < 0) throw ApiError.badRequest(`invalid limit: ${r.query.limit}`);
    if (semantics.kind === 'mostRecent' && !limit) {
      return this.sendList(r, await this.generic.list(def, info.namespace, selection, info.version));
    }
    let rv: number;
    let after = '';
    if (semantics.kind === 'continue') {
      const token = decodeContinue(semantics.token);
      if (token.rv < this.cache.oldestExactRv) throw continueExpired();
      rv = token.rv;
      after = token.start;
    } else if (semantics.kind === 'exact') {
      await awaitRevision(this.cache, semantics.rv);
      if (semantics.rv < this.cache.oldestExactRv) throw tooOld(semantics.rv, this.cache.oldestExactRv);
      rv = semantics.rv;
    } else {
      // most recent (consistent: the cache catches up with the newest commit first), not older than, any
      if (semantics.kind === 'mostRecent') await awaitRevision(this.cache, await this.store.currentRv());
      if (semantics.kind === 'notOlderThan') await awaitRevision(this.cache, semantics.rv);
      rv = this.cache.rv;
    }
    // like a list read from PostgreSQL: the corrupt rows are named, and nothing else is returned
    const corrupt = this.cache.corruptIn(storageKey(def), this.namespaceOf(r));
    if (corrupt.length > 0) throw corruptionFailure(CorruptListError.of(corrupt), this.generic.gr(def));
    // "Any" ignores limit, as kube's watch cache does
    const paged = limit > 0 && semantics.kind !== 'any';
    const page = this.cache.page(
      storageKey(def),
      this.namespaceOf(r),
      rv,
      after,
      paged ? limit : Infinity,
      selection.matches,
    );
    const list: KubeList = {
      apiVersion: groupVersion(def.group, info.version),
      kind: def.listKind,
      metadata: { resourceVersion: String(rv) },
      items: await servedAs(def, page.items),
    };
    if (paged && page.more) {
      list.metadata.continue = encodeContinue({ rv, start: page.last });
      if (!selection.filtered) list.metadata.remainingItemCount = page.remaining;
    }
    return this.sendList(r, list);
  }

  async watch(r: ResourceRequest): Promise<unknown> {
    const { def, info } = r;
    const selection = this.selection(r);
    const start = watchStart(r.query);
    const name = info.name;
    const matches = name
      ? (o: KubeObject) => o.metadata.name === name && selection.matches(o)
      : selection.matches;
    if (start.kind === 'mostRecent') await awaitRevision(this.cache, await this.store.currentRv());
    else if (start.kind === 'any' && start.rv > 0) await awaitRevision(this.cache, start.rv);
    const timeoutS = r.query.timeoutSeconds ? Number(r.query.timeoutSeconds) : 0;
    if (!Number.isFinite(timeoutS) || timeoutS < 0)
      throw ApiError.badRequest(`invalid timeoutSeconds: ${r.query.timeoutSeconds}`);
    // from here on synchronous until the watcher is registered: the snapshot and its revision agree
    const initial =
      start.kind === 'exact' ? [] : this.cache.list(storageKey(def), this.namespaceOf(r)).filter(matches);
    const startRv = start.kind === 'exact' ? (start.rv ?? this.cache.rv) : this.cache.rv;
    r.reply.hijack();
    const watcher = new Watcher(
      this.cache,
      {
        resource: storageKey(def),
        namespace: this.namespaceOf(r),
        matches,
        startRv,
        initial,
        timeoutMs: Math.min(watchTimeoutMs(timeoutS, this.minRequestTimeoutS), MAX_TIMER_MS),
        bookmarks: queryFlag(r.query.allowWatchBookmarks),
        initialEventsEnd: start.kind !== 'exact' && start.initialEventsEnd,
        apiVersion: groupVersion(def.group, info.version),
        kind: def.kind,
        encoding: watchEncoding(r.out, this.presentation(r)),
        sent: this.watchEvents?.({ group: def.group, version: info.version, kind: def.kind }),
        // stored in another version than asked for: each batch converted before it is encoded
        prepare: convertsStored(def) ? (objects) => servedAs(def, objects) : undefined,
      },
      r.reply.raw,
    );
    if (startRv < this.cache.oldestRv) {
      watcher.start(false);
      watcher.fail(tooOld(startRv, this.cache.oldestRv).toStatus());
      return undefined;
    }
    watcher.start(true);
    return undefined;
  }

  /** An object as asked for: itself, a one-row Table, or its PartialObjectMetadata. */
  private present(r: ResourceRequest): (obj: KubeObject) => unknown {
    return this.presentation(r)?.present ?? ((obj) => obj);
  }

  /** The conversion asked for, if any; a Table's cells depend on the time, so its events are not shared. */
  private presentation(r: ResourceRequest): Presentation | undefined {
    const c = r.out.conversion;
    if (c?.as === 'Table') {
      const includeObject = parseIncludeObject(r.query.includeObject);
      return {
        present: (obj) => toTable(r.def, [obj], {}, { includeObject, version: c.version, nowMs: Date.now() }),
      };
    }
    if (c?.as === 'PartialObjectMetadata') {
      return {
        present: (obj) => partialObjectMetadata(obj, c.version),
        shared: `as=PartialObjectMetadata;v=${c.version}`,
      };
    }
    return undefined;
  }

  private sendObject(r: ResourceRequest, obj: KubeObject): unknown {
    return send(r.reply, 200, this.present(r)(obj), r.out);
  }

  private sendList(r: ResourceRequest, list: KubeList): unknown {
    const c = r.out.conversion;
    if (c?.as === 'Table') {
      const includeObject = parseIncludeObject(r.query.includeObject);
      return send(
        r.reply,
        200,
        toTable(r.def, list.items, list.metadata, { includeObject, version: c.version, nowMs: Date.now() }),
        r.out,
      );
    }
    if (c?.as === 'PartialObjectMetadataList') {
      return send(r.reply, 200, partialObjectMetadataList(list.items, list.metadata, c.version), r.out);
    }
    return send(r.reply, 200, list, r.out);
  }

  private selection(r: ResourceRequest): Selection {
    return parseSelection(r.def, r.query.labelSelector, r.query.fieldSelector);
  }

  private namespaceOf(r: ResourceRequest): string | undefined {
    return r.def.scope === 'Namespaced' && r.info.namespace
      ? r.info.namespace
      : r.def.scope === 'Cluster'
        ? ''
        : undefined;
  }
}
