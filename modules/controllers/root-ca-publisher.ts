/**
 * kube's `root-ca-cert-publisher`: every namespace holds the ConfigMap `kube-root-ca.crt` whose `ca.crt` is the
 * CA clients trust to reach this server; a copy that was edited is put back, one that was deleted made again.
 */
import { isPlainObject, systemContext, type KubeObject } from '../api/index.js';
import type { GenericStore, Registry } from '../registry/index.js';
import type { WatchCache } from '../watch/index.js';
import { isNamespaceTerminating, isNotFound } from './api-errors.js';
import type { Controller } from './controller.js';
import { FlapGuard } from './flap-guard.js';
import { Informer, type InformerEvent } from '../watch/index.js';
import { isActiveNamespace } from './serviceaccount-controller.js';
import { WorkQueue } from '../watch/index.js';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const ROOT_CA_KEY = 'ca.crt';
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export class RootCaPublisher implements Controller {
  readonly name = 'root-ca-cert-publisher';
  private readonly namespaces: Informer;
  private readonly configMaps: Informer;
  private readonly queue: WorkQueue;
  private readonly flaps: FlapGuard;

  constructor(
    cache: WatchCache,
    private readonly registry: Registry,
    private readonly generic: GenericStore,
    private readonly rootCa: string,
    log: (message: string) => void,
  ) {
    this.queue = new WorkQueue((ns) => this.sync(ns), log);
    this.flaps = new FlapGuard(log);
    this.namespaces = new Informer(cache, '/namespaces', (e) => this.namespaceChanged(e));
    this.configMaps = new Informer(cache, '/configmaps', (e) => this.configMapChanged(e));
  }

  /** The informers wait for the watch cache to fill; the server need not wait for them to serve. */
  start(): void {
    void this.configMaps.start().then(() => this.namespaces.start());
  }

  async stop(): Promise<void> {
    this.namespaces.stop();
    this.configMaps.stop();
    await this.queue.stop();
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  private namespaceChanged(e: InformerEvent): void {
    if (e.type === 'ADDED' || (e.type === 'MODIFIED' && isActiveNamespace(e.object)))
      this.queue.add(e.object.metadata.name!);
  }

  private configMapChanged(e: InformerEvent): void {
    if (e.type !== 'ADDED' && e.object.metadata.name === ROOT_CA_CONFIGMAP)
      this.queue.add(e.object.metadata.namespace!);
  }

  /** As kube's publisher: the data is exactly the CA, and the description annotation is there. */
  private current(cm: KubeObject): boolean {
    const data = isPlainObject(cm.data) ? cm.data : {};
    const keys = Object.keys(data);
    return (
      keys.length === 1 &&
      data[ROOT_CA_KEY] === this.rootCa &&
      !!cm.metadata.annotations?.[DESCRIPTION_ANNOTATION]
    );
  }

  private async sync(namespace: string): Promise<void> {
    const def = this.registry.storedKind('', 'configmaps');
    if (!def) return;
    const ctx = systemContext();
    const existing = this.configMaps.get(namespace, ROOT_CA_CONFIGMAP);
    try {
      if (!existing) {
        if (!this.namespaces.get('', namespace)) return;
        const cm = {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data: { [ROOT_CA_KEY]: this.rootCa },
        };
        await this.generic.create(ctx, def, namespace, cm, {});
        return;
      }
      if (this.current(existing)) return;
      const why = 'does another replica publish another CA? Replicas must share their serving CA';
      if (!this.flaps.allow(`configmap ${namespace}/${ROOT_CA_CONFIGMAP}`, why)) return;
      await this.generic.update(
        ctx,
        def,
        namespace,
        ROOT_CA_CONFIGMAP,
        (stored) => {
          const next = structuredClone(stored ?? existing);
          next.data = { [ROOT_CA_KEY]: this.rootCa };
          next.metadata.annotations = { ...next.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION };
          return next;
        },
        {},
      );
    } catch (e) {
      // the namespace or the ConfigMap went meanwhile: the events that follow say what is left to do
      if (!isNotFound(e) && !isNamespaceTerminating(e)) throw e;
    }
  }
}
