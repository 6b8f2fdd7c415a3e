/**
 * kube-apiserver's `rbac/bootstrap-roles` post-start hook: the default RBAC roles and bindings reconciled once
 * the built-in namespaces exist (kube-system holds one Role); readiness reports when it has run.
 */
import { reconcileDefaultPolicy } from '../authorization/index.js';
import type { GenericStore, Registry } from '../registry/index.js';

export class DefaultPolicy {
  /** true once the defaults are in storage */
  ready = false;

  constructor(
    private readonly registry: Registry,
    private readonly generic: GenericStore,
  ) {}

  async reconcile(): Promise<void> {
    await reconcileDefaultPolicy(this.registry, this.generic);
    this.ready = true;
  }
}
