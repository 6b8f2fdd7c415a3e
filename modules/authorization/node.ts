/**
 * kube's Node authorizer: a kubelet (`system:node:<name>` in `system:nodes`) may read the Secrets, ConfigMaps,
 * PVCs and ServiceAccount tokens its pods lead to (the graph, node-graph.ts), use its own node Lease, and what
 * the static node rules (system:node's) allow. With AuthorizeNodeWithSelectors (kube v1.32's default) its
 * reads of Nodes and Pods are narrowed too: its own Node, the pods bound to it. Anyone else: no opinion.
 * What the authorizer cannot see (a create's name, the object written) NodeRestriction checks at admission.
 */
import { allow, noOpinion, type Attributes, type Authorizer, type Verdict } from './authorizer.js';
import { NodeGraph, type GraphResource } from './node-graph.js';
import { defaultClusterRoles } from './rbac/bootstrap-policy.js';
import { ruleAllows, type PolicyRule } from './rbac/rules.js';

const NODE_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

const nodeRules = (defaultClusterRoles.find((r) => r.metadata.name === 'system:node')?.rules ??
  []) as PolicyRule[];

/** The node a user is, or undefined when it is not a node's identity (kube's NodeIdentifier). */
export function nodeNameOf(user: Attributes['user']): string | undefined {
  if (!user.name.startsWith(NODE_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.name.slice(NODE_PREFIX.length);
}

const no = (reason: string): Verdict => ({ decision: 'noOpinion', reason });

export interface NodeAuthorizerOptions {
  /** resolves once the graph holds every stored pod */
  ready?: Promise<void>;
  /** AuthorizeNodeWithSelectors: Node and Pod reads are limited to the node's own */
  selectors?: boolean;
}

export class NodeAuthorizer implements Authorizer {
  private synced = false;
  private readonly ready: Promise<void>;
  private readonly selectors: boolean;

  constructor(
    private readonly graph: NodeGraph = new NodeGraph(),
    options: NodeAuthorizerOptions = {},
  ) {
    this.ready = options.ready ?? Promise.resolve();
    this.selectors = options.selectors ?? true;
    void this.ready.then(() => (this.synced = true));
  }

  async authorize(a: Attributes): Promise<Verdict> {
    const node = nodeNameOf(a.user);
    if (node === undefined) return noOpinion;
    if (!node) return no(`unknown node for user "${a.user.name}"`);
    if (!this.synced) await this.ready;
    if (a.isResourceRequest) {
      const verdict = this.subdivided(node, a);
      if (verdict) return verdict;
    }
    return nodeRules.some((r) => ruleAllows(a, r)) ? allow : noOpinion;
  }

  /** The answer for a kind whose access kube subdivides per node; undefined: the static rules decide. */
  private subdivided(node: string, a: Attributes): Verdict | undefined {
    if (a.apiGroup === 'coordination.k8s.io' && a.resource === 'leases') return lease(node, a);
    if (a.apiGroup !== '') return undefined;
    switch (a.resource) {
      case 'secrets':
      case 'configmaps':
        return this.readNamespaced(node, a.resource, a);
      case 'persistentvolumeclaims':
        return a.subresource === 'status'
          ? this.statusUpdate(node, a)
          : this.getOnly(node, 'persistentvolumeclaims', a);
      case 'persistentvolumes':
        return this.getOnly(node, 'persistentvolumes', a);
      case 'serviceaccounts':
        return this.createToken(node, a);
      case 'nodes':
        return this.selectors ? ownNode(node, a) : undefined;
      case 'pods':
        return this.selectors ? this.pod(node, a) : undefined;
      default:
        return undefined;
    }
  }

  private readNamespaced(node: string, resource: GraphResource, a: Attributes): Verdict {
    if (!['get', 'list', 'watch'].includes(a.verb)) return no('can only read resources of this type');
    if (a.subresource) return no('cannot read subresource');
    if (!a.namespace) return no('can only read namespaced object of this type');
    return this.related(node, resource, a);
  }

  private getOnly(node: string, resource: GraphResource, a: Attributes): Verdict {
    if (a.verb !== 'get') return no('can only get individual resources of this type');
    if (a.subresource) return no('cannot get subresource');
    return this.related(node, resource, a);
  }

  private statusUpdate(node: string, a: Attributes): Verdict {
    if (a.verb !== 'update' && a.verb !== 'patch') return no('can only get/update/patch this type');
    return this.related(node, 'persistentvolumeclaims', a);
  }

  private createToken(node: string, a: Attributes): Verdict {
    if (a.verb !== 'create' || !a.name) return no('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return no('can only create token subresource of serviceaccount');
    return this.edge(node, 'serviceaccounts', a);
  }

  private pod(node: string, a: Attributes): Verdict {
    if (a.subresource === '') {
      if (a.verb === 'get') return this.getOnly(node, 'pods', a);
      if (a.verb === 'list' || a.verb === 'watch') {
        const own = a.fieldSelector?.some(
          (r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === node,
        );
        if (own) return allow;
        if (a.name) return this.related(node, 'pods', a);
        return no('can only list/watch pods with spec.nodeName field selector');
      }
      // mirror pods: NodeRestriction limits them to the node's own
      if (a.verb === 'create' || a.verb === 'delete') return allow;
    }
    // NodeRestriction limits these to pods bound to the node
    if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) return allow;
    if (a.subresource === 'eviction' && a.verb === 'create') return allow;
    return noOpinion;
  }

  private related(node: string, resource: GraphResource, a: Attributes): Verdict {
    if (!a.name) return no('No Object name found');
    return this.edge(node, resource, a);
  }

  private edge(node: string, resource: GraphResource, a: Attributes): Verdict {
    return this.graph.related(node, resource, a.namespace, a.name)
      ? allow
      : no(`no relationship found between node '${node}' and this object`);
  }
}

function lease(node: string, a: Attributes): Verdict {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb))
    return no('can only get, create, update, patch, or delete a node lease');
  if (a.namespace !== NODE_LEASE_NAMESPACE)
    return no(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
  // a create names no object here; NodeRestriction checks the name
  if (a.verb !== 'create' && a.name !== node)
    return no('can only access node lease with the same name as the requesting node');
  return allow;
}

/** A node writes its own Node (NodeRestriction checks which) and reads it by name, even before it exists. */
function ownNode(node: string, a: Attributes): Verdict {
  if (a.subresource === '') {
    if (['create', 'update', 'patch'].includes(a.verb)) return allow;
    if (['get', 'list', 'watch'].includes(a.verb)) {
      if (a.name === node) return allow;
      if (!a.name) return no(`node '${node}' cannot read all nodes, only its own Node object`);
      return no(`node '${node}' cannot read '${a.name}', only its own Node object`);
    }
  }
  if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) return allow;
  return noOpinion;
}
