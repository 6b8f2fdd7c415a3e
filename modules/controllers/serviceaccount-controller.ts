/**
 * kube's `serviceaccount` controller: every active namespace has a `default` ServiceAccount, made again when
 * it is deleted. It reads namespaces and accounts from the watch cache and writes through the generic store.
 */
import { isPlainObject, systemContext, type KubeObject } from '../api/index.js';
import type { GenericStore, Registry } from '../registry/index.js';
import type { WatchCache } from '../watch/index.js';
import { isAlreadyExists, isNamespaceTerminating, isNotFound } from './api-errors.js';
import type { Controller } from './controller.js';
import { Informer, type InformerEvent } from '../watch/index.js';
import { WorkQueue } from '../watch/index.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export function isActiveNamespace(ns: KubeObject | undefined): ns is KubeObject {
  return !!ns && isPlainObject(ns.status) && ns.status.phase === 'Active';
}

export class ServiceAccountController implements Controller {
  readonly name = 'serviceaccount';
  private readonly namespaces: Informer;
  private readonly accounts: Informer;
  private readonly queue: WorkQueue;

  constructor(
    cache: WatchCache,
    private readonly registry: Registry,
    private readonly generic: GenericStore,
    log: (message: string) => void,
  ) {
    this.queue = new WorkQueue((ns) => this.sync(ns), log);
    this.namespaces = new Informer(cache, '/namespaces', (e) => this.queue.add(e.object.metadata.name!));
    this.accounts = new Informer(cache, '/serviceaccounts', (e) => this.accountChanged(e));
  }

  /** The informers wait for the watch cache to fill; the server need not wait for them to serve. */
  start(): void {
    void this.accounts.start().then(() => this.namespaces.start());
  }

  async stop(): Promise<void> {
    this.namespaces.stop();
    this.accounts.stop();
    await this.queue.stop();
  }

  /** Resolves once every namespace seen so far has been handled (tests). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private accountChanged(e: InformerEvent): void {
    if (e.type === 'DELETED' && e.object.metadata.name === DEFAULT_SERVICE_ACCOUNT)
      this.queue.add(e.object.metadata.namespace!);
  }

  private async sync(namespace: string): Promise<void> {
    if (!isActiveNamespace(this.namespaces.get('', namespace))) return;
    if (this.accounts.get(namespace, DEFAULT_SERVICE_ACCOUNT)) return;
    const def = this.registry.storedKind('', 'serviceaccounts');
    if (!def) return;
    const account = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT } };
    try {
      await this.generic.create(systemContext(), def, namespace, account, {});
    } catch (e) {
      // made meanwhile (another replica), or the namespace went: nothing to do
      if (!isAlreadyExists(e) && !isNotFound(e) && !isNamespaceTerminating(e)) throw e;
    }
  }
}
