/**
 * Where NamespaceLifecycle learns whether a namespace exists: the local store (standalone), or a delegating
 * server's host (--kubeconfig, else --authentication-kubeconfig), where the namespaces of its objects live.
 * The host is asked `GET /api/v1/namespaces/<name>`; an active namespace is remembered a few seconds (kube's
 * sample-apiserver reads an informer, as stale), a missing or terminating one is asked again each time, so a
 * namespace just made on the host can be used at once. A host that cannot answer is an internal error.
 */
import { ApiError, isPlainObject } from '../api/index.js';
import { WebhookError, type WebhookTransport } from '../webhook/index.js';

export type NamespaceState = 'active' | 'terminating' | 'missing';

export interface NamespaceSource {
  state(name: string): Promise<NamespaceState>;
}

const ACTIVE_TTL_MS = 5_000;
/** most namespaces remembered */
const CACHE_SIZE = 4096;

function stateOf(body: string): NamespaceState {
  const ns: unknown = JSON.parse(body);
  if (!isPlainObject(ns) || ns.kind !== 'Namespace') throw new Error('the answer is no Namespace');
  const meta = isPlainObject(ns.metadata) ? ns.metadata : {};
  const status = isPlainObject(ns.status) ? ns.status : {};
  return meta.deletionTimestamp || status.phase === 'Terminating' ? 'terminating' : 'active';
}

export class HostNamespaces implements NamespaceSource {
  private readonly active = new Map<string, number>();

  constructor(
    private readonly transport: Pick<WebhookTransport, 'get'>,
    private readonly o: { activeTtlMs?: number; now?: () => number } = {},
  ) {}

  async state(name: string): Promise<NamespaceState> {
    const now = (this.o.now ?? Date.now)();
    const until = this.active.get(name);
    if (until !== undefined && until > now) return 'active';
    this.active.delete(name);
    let state: NamespaceState;
    try {
      state = await this.transport.get(`/api/v1/namespaces/${encodeURIComponent(name)}`, stateOf);
    } catch (e) {
      if (e instanceof WebhookError && e.status === 404) return 'missing';
      const why = e instanceof WebhookError ? (e.statusMessage ?? e.message) : (e as Error).message;
      throw ApiError.internal(`the host could not tell whether namespace ${name} exists: ${why}`);
    }
    if (state === 'active') {
      if (this.active.size >= CACHE_SIZE) this.active.delete(this.active.keys().next().value!);
      this.active.set(name, now + (this.o.activeTtlMs ?? ACTIVE_TTL_MS));
    }
    return state;
  }
}
