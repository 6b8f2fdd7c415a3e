/**
 * kube's `bootstrapsigner`: keeps `kube-public/cluster-info` signed with one `jws-kubeconfig-<id>` per
 * bootstrap token Secret that may sign (`usage-bootstrap-signing: "true"`, not expired), and drops the
 * signatures of tokens that no longer may. It writes only when a signature changes: its own write comes back
 * as an event and finds nothing to do.
 */
import { ApiError, isPlainObject, systemContext, type KubeObject } from '../api/index.js';
import {
  BOOTSTRAP_TOKEN_NAMESPACE,
  isBootstrapTokenSecret,
  signingToken,
  tokenExpiry,
} from '../authentication/index.js';
import type { GenericStore, ResourceDefinition } from '../registry/index.js';
import { storageKey } from '../registry/index.js';
import type { WatchCache } from '../watch/index.js';
import {
  CLUSTER_INFO_NAME,
  CLUSTER_INFO_NAMESPACE,
  clusterInfoConfigMap,
  KUBECONFIG_KEY,
  SIGNATURE_PREFIX,
  type ClusterEndpoint,
} from './cluster-info.js';
import type { Controller } from './controller.js';
import { detachedJws } from './detached-jws.js';
import { Informer, type InformerEvent } from '../watch/index.js';
import { ignoreNotFound } from './ignore-not-found.js';
import { WorkQueue } from '../watch/index.js';

const KEY = `${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_NAME}`;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** what kube's controllers record as their field manager */
const MANAGER = 'kube-controller-manager';

export interface SigningToken {
  id: string;
  secret: string;
}

/**
 * cluster-info signed with exactly `tokens`, or undefined when it already is (or has no kubeconfig to sign).
 * Other keys are kept as they are.
 */
export function resign(configMap: KubeObject, tokens: readonly SigningToken[]): KubeObject | undefined {
  const data = isPlainObject(configMap.data) ? (configMap.data as Record<string, string>) : {};
  const content = data[KUBECONFIG_KEY];
  if (typeof content !== 'string') return undefined;
  const next: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) if (!key.startsWith(SIGNATURE_PREFIX)) next[key] = value;
  for (const t of tokens) next[SIGNATURE_PREFIX + t.id] ??= detachedJws(content, t.id, t.secret);
  const before = Object.keys(data).filter((k) => k.startsWith(SIGNATURE_PREFIX));
  const after = Object.keys(next).filter((k) => k.startsWith(SIGNATURE_PREFIX));
  if (before.length === after.length && after.every((k) => data[k] === next[k])) return undefined;
  return { ...structuredClone(configMap), data: next };
}

export class BootstrapSigner implements Controller {
  readonly name = 'bootstrapsigner';
  private readonly queue: WorkQueue;
  private secrets!: Informer;
  private configMaps!: Informer;
  private configMapKind!: ResourceDefinition;
  /** re-sign when the next signing token expires, so its signature goes then */
  private expiryTimer?: NodeJS.Timeout;
  /** where clients reach the server, once it listens: cluster-info is created from it if absent */
  private createFrom?: ClusterEndpoint;
  private stopped = false;

  /** `kind(resource)`: the stored core kind (registered once the application has started) */
  constructor(
    private readonly cache: WatchCache,
    private readonly kind: (resource: string) => ResourceDefinition,
    private readonly generic: GenericStore,
    log: (message: string) => void,
    private readonly endpoint?: Promise<ClusterEndpoint>,
    private readonly now: () => number = Date.now,
  ) {
    this.queue = new WorkQueue(() => this.sync(), log);
  }

  async start(): Promise<void> {
    const poke = () => this.queue.add(KEY);
    const tokenEvent = (e: InformerEvent) =>
      isBootstrapTokenSecret(e.object) || (e.prev !== undefined && isBootstrapTokenSecret(e.prev));
    this.configMapKind = this.kind('configmaps');
    this.secrets = new Informer(this.cache, storageKey(this.kind('secrets')), (e) => tokenEvent(e) && poke());
    this.configMaps = new Informer(this.cache, storageKey(this.configMapKind), (e) => {
      const { namespace, name } = e.object.metadata;
      if (namespace === CLUSTER_INFO_NAMESPACE && name === CLUSTER_INFO_NAME) poke();
    });
    await this.secrets.start();
    await this.configMaps.start();
    this.queue.add(KEY);
    void this.endpoint?.then((endpoint) => {
      this.createFrom = endpoint;
      this.queue.add(KEY);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.secrets?.stop();
    this.configMaps?.stop();
    clearTimeout(this.expiryTimer);
    await this.queue.stop();
  }

  private signingTokens(): SigningToken[] {
    const now = this.now();
    const tokens = this.secrets.list(BOOTSTRAP_TOKEN_NAMESPACE).flatMap((s) => signingToken(s, now) ?? []);
    return tokens.sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  private async sync(): Promise<void> {
    if (this.stopped) return;
    this.scheduleExpiry();
    const current = this.configMaps.get(CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME);
    if (!current) return this.createClusterInfo();
    // it exists: one deleted later is not made again (kubeadm creates it once, too)
    this.createFrom = undefined;
    if (!resign(current, this.signingTokens())) return;
    // made again from the stored object on every retry of the update loop
    await this.generic
      .update(
        systemContext(),
        this.configMapKind,
        CLUSTER_INFO_NAMESPACE,
        CLUSTER_INFO_NAME,
        (stored) => {
          if (!stored) throw ApiError.notFound({ group: '', resource: 'configmaps' }, CLUSTER_INFO_NAME);
          // unchanged meanwhile: the store writes nothing
          return resign(stored, this.signingTokens()) ?? structuredClone(stored);
        },
        { manager: MANAGER },
      )
      .catch(ignoreNotFound);
  }

  /** When the server listens, if there is none: kubeadm's "create if it does not exist", so an edited one stays. */
  private async createClusterInfo(): Promise<void> {
    const endpoint = this.createFrom;
    if (!endpoint) return;
    try {
      await this.generic.create(
        systemContext(),
        this.configMapKind,
        CLUSTER_INFO_NAMESPACE,
        clusterInfoConfigMap(endpoint),
        { manager: MANAGER },
      );
    } catch (e) {
      if (!(e instanceof ApiError && e.reason === 'AlreadyExists')) throw e;
    }
    this.createFrom = undefined;
  }

  private scheduleExpiry(): void {
    clearTimeout(this.expiryTimer);
    const now = this.now();
    let next = Infinity;
    for (const s of this.secrets.list(BOOTSTRAP_TOKEN_NAMESPACE)) {
      if (!signingToken(s, now)) continue;
      const { remainingMs } = tokenExpiry(s, now);
      if (remainingMs !== undefined) next = Math.min(next, remainingMs);
    }
    if (next === Infinity) return;
    this.expiryTimer = setTimeout(() => this.queue.add(KEY), Math.min(next, MAX_TIMER_MS));
    this.expiryTimer.unref();
  }
}
