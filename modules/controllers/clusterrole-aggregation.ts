/**
 * kube's `clusterrole-aggregation` controller: a ClusterRole with an aggregationRule gets as rules the union
 * of the rules of every other ClusterRole its selectors match, kept current as those change.
 */
import {
  isPlainObject,
  labelSelectorFromMeta,
  systemContext,
  type KubeObject,
  type MetaLabelSelector,
} from '../api/index.js';
import type { GenericStore, Registry } from '../registry/index.js';
import { Informer, WorkQueue, type WatchCache } from '../watch/index.js';
import { isConflict, isNotFound } from './api-errors.js';
import type { Controller } from './controller.js';

const RBAC = 'rbac.authorization.k8s.io';
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function selectorsOf(role: KubeObject): MetaLabelSelector[] | undefined {
  const rule = role.aggregationRule;
  if (!isPlainObject(rule) || !Array.isArray(rule.clusterRoleSelectors)) return undefined;
  return rule.clusterRoleSelectors as MetaLabelSelector[];
}

export class ClusterRoleAggregation implements Controller {
  readonly name = 'clusterrole-aggregation';
  private readonly roles: Informer;
  private readonly queue: WorkQueue;

  constructor(
    cache: WatchCache,
    private readonly registry: Registry,
    private readonly generic: GenericStore,
    log: (message: string) => void,
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), log);
    // any change may alter what an aggregated role gathers: every aggregated role is looked at again
    this.roles = new Informer(cache, `${RBAC}/clusterroles`, () => this.enqueueAggregated());
  }

  start(): void {
    void this.roles.start();
  }

  async stop(): Promise<void> {
    this.roles.stop();
    await this.queue.stop();
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  private enqueueAggregated(): void {
    for (const role of this.roles.list()) if (selectorsOf(role)) this.queue.add(role.metadata.name!);
  }

  private async sync(name: string): Promise<void> {
    const role = this.roles.get('', name);
    const selectors = role && selectorsOf(role);
    if (!role || !selectors) return;
    const matchers = selectors.flatMap((s) => {
      try {
        return [labelSelectorFromMeta(s)];
      } catch {
        return [];
      }
    });
    const rules: unknown[] = [];
    const sources = this.roles
      .list()
      .filter((r) => r.metadata.name !== name && matchers.some((m) => m.matches(r.metadata.labels ?? {})))
      .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    for (const source of sources)
      for (const rule of Array.isArray(source.rules) ? source.rules : [])
        if (!rules.some((r) => same(r, rule))) rules.push(rule);
    if (same(role.rules ?? [], rules)) return;
    const def = this.registry.storedKind(RBAC, 'clusterroles');
    if (!def) return;
    try {
      await this.generic.update(
        systemContext(),
        def,
        '',
        name,
        (current) => {
          if (!current) throw new Error('gone');
          return { ...current, rules };
        },
        {},
      );
    } catch (e) {
      // deleted meanwhile, or another replica wrote first (its change comes back through the informer)
      if (!isNotFound(e) && !isConflict(e) && !(e instanceof Error && e.message === 'gone')) throw e;
    }
  }
}
