/**
 * Namespace lifecycle, as kube's namespace controller does it: the built-in namespaces exist; a Terminating
 * namespace has every namespaced object in it deleted (their finalizers honoured), and once it is empty its
 * `kubernetes` finalizer is dropped so the namespace itself goes.
 */
import type { KubeObject } from '../api/index.js';
import { isPlainObject } from '../api/index.js';
import { ApiError, systemContext } from '../api/index.js';
import type { GenericStore } from '../registry/index.js';
import type { Controller } from './controller.js';
import { ignoreNotFound } from './ignore-not-found.js';
import type { Registry } from '../registry/index.js';
import { everything } from '../registry/index.js';

export const BUILTIN_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const NAMESPACE_FINALIZER = 'kubernetes';
const SWEEP_MS = 1000;

export class NamespaceController implements Controller {
  readonly name = 'namespace';
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private started = false;
  private again = false;
  /** the built-in namespaces exist (a readiness check) */
  builtinsReady = false;

  constructor(
    private readonly registry: Registry,
    private readonly generic: GenericStore,
    private readonly log: (message: string) => void,
  ) {}

  private get namespaces() {
    // stored, not served: the built-in namespaces and namespace deletion work even with v1/namespaces disabled
    return this.registry.storedKind('', 'namespaces')!;
  }

  async ensureBuiltins(): Promise<void> {
    for (const name of BUILTIN_NAMESPACES) {
      try {
        await this.generic.create(
          systemContext(),
          this.namespaces,
          '',
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
          {},
        );
      } catch (e) {
        if (!(e instanceof ApiError && e.reason === 'AlreadyExists')) throw e;
      }
    }
    this.builtinsReady = true;
  }

  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.kick(), SWEEP_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.started = false;
    clearInterval(this.timer);
    await this.running;
  }

  /** Run a sweep now (after a namespace delete) or right after the current one. */
  kick(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sweep()
      .catch((e) => this.log(`namespace controller: ${(e as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async sweep(): Promise<void> {
    const list = await this.generic.list(this.namespaces, '', everything, 'v1');
    for (const ns of list.items) if (ns.metadata.deletionTimestamp) await this.finalize(ns);
  }

  private async finalize(ns: KubeObject): Promise<void> {
    const name = ns.metadata.name!;
    let remaining = 0;
    for (const def of this.registry.namespaced()) {
      const list = await this.generic.list(def, name, everything, def.storageVersion);
      remaining += list.items.length;
      for (const item of list.items) {
        if (item.metadata.deletionTimestamp) continue;
        await this.generic.delete(systemContext(), def, name, item.metadata.name!, {}).catch(ignoreNotFound);
      }
    }
    if (remaining > 0) return;
    const spec = isPlainObject(ns.spec) ? ns.spec : {};
    const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : [];
    if (!finalizers.includes(NAMESPACE_FINALIZER)) return;
    const next = structuredClone(ns);
    next.spec = { ...spec, finalizers: finalizers.filter((f) => f !== NAMESPACE_FINALIZER) };
    await this.generic
      .update(systemContext(), this.namespaces, '', name, () => structuredClone(next), {
        subresource: 'finalize',
      })
      .catch(ignoreNotFound);
  }
}
