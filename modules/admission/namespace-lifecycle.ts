/**
 * NamespaceLifecycle (kube's plugin of that name): nothing is created in a namespace that does not exist or
 * is being deleted, and the namespaces the cluster needs may not be deleted. The namespace check is made in
 * the create's own transaction (a storage requirement), so a namespace deleted meanwhile cannot be missed;
 * a dry run, which writes nothing, reads the namespace instead. A delegating server asks its host instead
 * (namespace-source.ts): its namespaces are the host's.
 */
import { ApiError, type GroupResource } from '../api/index.js';
import type { AdmissionAttributes, Requirement } from '../registry/index.js';
import type { ObjectKey, Store } from '../storage/index.js';
import type { AdmissionPlugin } from './plugin.js';
import type { NamespaceSource } from './namespace-source.js';

/** kube's immortal namespaces */
const UNDELETABLE = new Set(['default', 'kube-system', 'kube-public']);
const NAMESPACES: GroupResource = { group: '', resource: 'namespaces' };

function namespaceKey(name: string): ObjectKey {
  return { resource: '/namespaces', namespace: '', name };
}

function terminating(gr: GroupResource, name: string, namespace: string): ApiError {
  const resource = gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
  return new ApiError(
    403,
    'Forbidden',
    `${resource} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
    {
      name,
      group: gr.group || undefined,
      kind: gr.resource,
      causes: [
        {
          reason: 'NamespaceTerminating',
          message: `namespace ${namespace} is being terminated`,
          field: 'metadata.namespace',
        },
      ],
    },
  );
}

export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = 'NamespaceLifecycle';

  /** `namespaces`: where namespaces live when not in this server's store (a delegating server's host) */
  constructor(
    private readonly store: Store,
    private readonly namespaces?: NamespaceSource,
  ) {}

  validate(a: AdmissionAttributes): void | Promise<void> {
    if (a.operation === 'DELETE' && a.def.group === '' && a.def.resource === 'namespaces') {
      if (UNDELETABLE.has(a.name)) {
        throw ApiError.forbidden(
          `namespaces "${a.name}" is forbidden: this namespace may not be deleted`,
          NAMESPACES,
          a.name,
        );
      }
      return;
    }
    if (a.operation !== 'CREATE' || a.def.scope !== 'Namespaced') return;
    // a subresource create (pods/eviction, serviceaccounts/token) stores nothing new in the namespace
    if (a.subresource) return;
    // a virtual kind stores nothing in the namespace (kube lets LocalSubjectAccessReview through likewise)
    if (a.def.storage === 'virtual') return;
    const gr = { group: a.def.group, resource: a.def.resource };
    const requirement: Requirement = {
      key: namespaceKey(a.namespace),
      missing: () => ApiError.notFound(NAMESPACES, a.namespace),
      deleting: () => terminating(gr, a.name, a.namespace),
    };
    if (this.namespaces) return this.askSource(this.namespaces, a.namespace, requirement);
    if (a.ctx.dryRun) return this.checkNow(requirement);
    a.requires = requirement;
  }

  private async askSource(source: NamespaceSource, name: string, requirement: Requirement): Promise<void> {
    const state = await source.state(name);
    if (state === 'missing') throw requirement.missing();
    if (state === 'terminating') throw requirement.deleting();
  }

  private async checkNow(requirement: Requirement): Promise<void> {
    const ns = await this.store.get(requirement.key);
    if (!ns) throw requirement.missing();
    if (ns.object.metadata.deletionTimestamp) throw requirement.deleting();
  }
}
