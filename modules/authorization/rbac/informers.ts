/** Keeps an RbacPolicy in step with this replica's watch cache (informers on the four RBAC kinds). */
import { Informer, type InformerEvent, type WatchCache } from '../../watch/index.js';
import { RbacPolicy } from './policy.js';

const RBAC = 'rbac.authorization.k8s.io';

export class RbacInformers {
  readonly policy = new RbacPolicy();
  private readonly informers: Informer[];
  private started?: Promise<void>;

  constructor(cache: WatchCache) {
    const role = (e: InformerEvent) => this.policy.setRole(e.object, e.type === 'DELETED');
    const binding = (e: InformerEvent) => this.policy.setBinding(e.object, e.type === 'DELETED');
    this.informers = [
      new Informer(cache, `${RBAC}/roles`, role),
      new Informer(cache, `${RBAC}/clusterroles`, role),
      new Informer(cache, `${RBAC}/rolebindings`, binding),
      new Informer(cache, `${RBAC}/clusterrolebindings`, binding),
    ];
  }

  /** Resolves once every stored role and binding is in the policy; the first call starts the informers. */
  start(): Promise<void> {
    this.started ??= Promise.all(this.informers.map((i) => i.start())).then(() => undefined);
    return this.started;
  }

  stop(): void {
    for (const i of this.informers) i.stop();
  }
}
