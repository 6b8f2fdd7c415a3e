/**
 * kube's `tokencleaner`: deletes bootstrap token Secrets in kube-system once their `expiration` has passed
 * (or cannot be read). Each token is looked at again when it expires, so it goes at its expiration time, not
 * at the next sweep.
 */
import { systemContext, type KubeObject } from '../api/index.js';
import { isBootstrapTokenSecret, tokenExpiry } from '../authentication/index.js';
import { storageKey, type GenericStore, type ResourceDefinition } from '../registry/index.js';
import type { WatchCache } from '../watch/index.js';
import type { Controller } from './controller.js';
import { Informer, objectKeyOf, splitKey } from '../watch/index.js';
import { ignoreNotFound } from './ignore-not-found.js';
import { WorkQueue } from '../watch/index.js';

/** setTimeout's limit (about 24.8 days): a later expiry is looked at again then, and rescheduled */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class TokenCleaner implements Controller {
  readonly name = 'tokencleaner';
  private informer!: Informer;
  private secrets!: ResourceDefinition;
  private readonly queue: WorkQueue;
  /** one timer per token Secret waiting for its expiration */
  private readonly timers = new Map<string, NodeJS.Timeout>();

  /** `secrets()`: the stored Secret kind (registered once the application has started) */
  constructor(
    private readonly cache: WatchCache,
    private readonly kind: () => ResourceDefinition,
    private readonly generic: GenericStore,
    log: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.queue = new WorkQueue((key) => this.sync(key), log);
  }

  async start(): Promise<void> {
    this.secrets = this.kind();
    this.informer = new Informer(this.cache, storageKey(this.secrets), (e) => {
      if (e.type !== 'DELETED' && isBootstrapTokenSecret(e.object)) this.queue.add(objectKeyOf(e.object));
    });
    await this.informer.start();
  }

  async stop(): Promise<void> {
    this.informer?.stop();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.queue.stop();
  }

  private async sync(key: string): Promise<void> {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    const { namespace, name } = splitKey(key);
    const secret = this.informer.get(namespace, name);
    if (!secret || !isBootstrapTokenSecret(secret)) return;
    const { expired, remainingMs } = tokenExpiry(secret, this.now());
    if (expired) return this.delete(secret);
    if (remainingMs === undefined) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(key);
        this.queue.add(key);
      },
      Math.min(remainingMs, MAX_TIMER_MS),
    );
    timer.unref();
    this.timers.set(key, timer);
  }

  /** Only the Secret seen expired: one recreated under the same name in the meantime is left alone. */
  private async delete(secret: KubeObject): Promise<void> {
    const { namespace, name, uid } = secret.metadata;
    await this.generic
      .delete(systemContext(), this.secrets, namespace!, name!, { preconditions: uid ? { uid } : undefined })
      .catch(ignoreNotFound);
  }
}
