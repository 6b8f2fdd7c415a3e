/**
 * Kinds whose objects are never stored (`storage: 'virtual'`): a create computes its answer from the request
 * (kube's REST storages that implement only Create: TokenReview, SelfSubjectReview, the access reviews). The
 * definition is data like any kind's, so discovery, OpenAPI and --runtime-config treat it as one; the module
 * that owns the answer (authentication, authorization) provides it here, for its definition, at start.
 */
import type { KubeObject, RequestContext } from '../api/index.js';
import type { ResourceDefinition } from './definition.js';

/**
 * The answer to a create of a virtual kind: `obj` is the decoded, admitted request object (namespace set for
 * namespaced kinds); the result is sent back with 201 Created, as kube does.
 */
export type VirtualCreate = (ctx: RequestContext, obj: KubeObject) => Promise<KubeObject>;

export class VirtualKinds {
  private readonly creates = new Map<string, VirtualCreate>();

  /** Registers the create answer of a virtual kind; one owner per kind, so a second one is a wiring mistake. */
  provide(def: ResourceDefinition, create: VirtualCreate): void {
    const key = `${def.group}/${def.resource}`;
    if (this.creates.has(key)) throw new Error(`virtual kind ${key} already has a create handler`);
    this.creates.set(key, create);
  }

  /** The create answer of a virtual kind; undefined when no module provided one. */
  createOf(def: ResourceDefinition): VirtualCreate | undefined {
    return this.creates.get(`${def.group}/${def.resource}`);
  }
}
