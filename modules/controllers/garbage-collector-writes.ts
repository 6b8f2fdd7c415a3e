/**
 * The garbage collector's writes, through the generic store as the server itself (kube's collector is a
 * client with its own identity; here admission and validation still run). Each write is bound to the
 * object's uid, so an object deleted and made again under the same name meanwhile is never touched.
 */
import { systemContext, type KubeObject } from '../api/index.js';
import type { GenericStore, PropagationPolicy, Registry, ResourceDefinition } from '../registry/index.js';
import { isConflict, isNotFound } from './api-errors.js';
import type { GraphNode } from './garbage-collector-graph.js';

/** the object the write was for is no longer there (deleted, or another one under its name) */
class Gone extends Error {}

/** nothing to change: no write (and no admission) for it */
class Unchanged extends Error {
  constructor(readonly object: KubeObject) {
    super('unchanged');
  }
}

export type DeleteOutcome = 'deleted' | 'gone' | 'changed';

export class CollectorWrites {
  constructor(
    private readonly registry: Registry,
    private readonly generic: GenericStore,
  ) {}

  /**
   * Deletes the object at the revision the decision was made on (kube's collector does the same): when it
   * changed meanwhile, 'changed' says to decide again on its new state.
   */
  async delete(node: GraphNode, policy: PropagationPolicy): Promise<DeleteOutcome> {
    const def = this.kindOf(node);
    if (!def) return 'gone';
    const { namespace, name, uid, resourceVersion } = node.object.metadata;
    try {
      await this.generic.delete(systemContext(), def, namespace ?? '', name!, {
        preconditions: { uid, resourceVersion },
        propagationPolicy: policy,
      });
      return 'deleted';
    } catch (e) {
      if (isNotFound(e)) return 'gone';
      if (isConflict(e)) return 'changed';
      throw e;
    }
  }

  /**
   * Rewrites the object's metadata with `change` (run on the stored state, again on every retry); `change`
   * returns false when there is nothing to do. Resolves with the object written, or undefined when it is gone.
   */
  async rewrite(node: GraphNode, change: (object: KubeObject) => boolean): Promise<KubeObject | undefined> {
    const def = this.kindOf(node);
    if (!def) return undefined;
    const { namespace, name, uid } = node.object.metadata;
    try {
      const result = await this.generic.update(
        systemContext(),
        def,
        namespace ?? '',
        name!,
        (current) => {
          if (!current || current.metadata.uid !== uid) throw new Gone();
          const next = structuredClone(current);
          if (!change(next)) throw new Unchanged(current);
          return next;
        },
        {},
      );
      return result.object;
    } catch (e) {
      if (e instanceof Unchanged) return e.object;
      if (e instanceof Gone || isNotFound(e)) return undefined;
      throw e;
    }
  }

  /** Drops one finalizer (the collector's own, once its work is done); the object may go with it. */
  removeFinalizer(node: GraphNode, finalizer: string): Promise<KubeObject | undefined> {
    return this.rewrite(node, (o) => {
      const finalizers = o.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return false;
      o.metadata.finalizers = finalizers.filter((f) => f !== finalizer);
      return true;
    });
  }

  private kindOf(node: GraphNode): ResourceDefinition | undefined {
    const slash = node.resource.indexOf('/');
    return this.registry.storedKind(node.resource.slice(0, slash), node.resource.slice(slash + 1));
  }
}
