/**
 * kube's Node authorizer: a kubelet (`system:node:<name>` in `system:nodes`) may use its own node Lease,
 * objects its pods reference (none until pods are served: kube's graph answers no relationship), and what the
 * static node rules (system:node's) allow. Anyone else: no opinion.
 */
import { allow, noOpinion, type Attributes, type Authorizer, type Verdict } from './authorizer.js';
import { defaultClusterRoles } from './rbac/bootstrap-policy.js';
import { ruleAllows, type PolicyRule } from './rbac/rules.js';

const NODE_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

const nodeRules = (defaultClusterRoles.find((r) => r.metadata.name === 'system:node')?.rules ??
  []) as PolicyRule[];

/** The node a user is, or undefined when it is not a node's identity (kube's NodeIdentifier). */
export function nodeNameOf(user: Attributes['user']): string | undefined {
  if (!user.name.startsWith(NODE_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.name.slice(NODE_PREFIX.length);
}

const no = (reason: string): Verdict => ({ decision: 'noOpinion', reason });

/** Objects a node may read only through its pods: kube's graph-checked kinds. */
const graphKinds = new Set(['configmaps', 'secrets', 'persistentvolumeclaims', 'persistentvolumes']);

export class NodeAuthorizer implements Authorizer {
  async authorize(a: Attributes): Promise<Verdict> {
    const node = nodeNameOf(a.user);
    if (node === undefined) return noOpinion;
    if (!node) return no(`unknown node for user "${a.user.name}"`);
    if (a.isResourceRequest) {
      if (a.apiGroup === '' && graphKinds.has(a.resource)) {
        if (a.verb !== 'get') return no('can only get individual resources of this type');
        if (a.subresource) return no('cannot get subresource');
        return this.related(node, a);
      }
      if (a.apiGroup === '' && a.resource === 'serviceaccounts') {
        if (a.subresource !== 'token' || a.verb !== 'create')
          return no('can only create tokens for individual service accounts');
        return this.related(node, a);
      }
      if (a.apiGroup === 'coordination.k8s.io' && a.resource === 'leases') return this.lease(node, a);
    }
    return nodeRules.some((r) => ruleAllows(a, r)) ? allow : noOpinion;
  }

  /** kube's graph of node → pods → referenced objects; no pods are served yet, so nothing is related. */
  private related(node: string, a: Attributes): Verdict {
    if (!a.name) return no('No Object name found');
    return no(`no relationship found between node '${node}' and this object`);
  }

  private lease(node: string, a: Attributes): Verdict {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb))
      return no('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NODE_LEASE_NAMESPACE)
      return no(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
    // a create names no object here; the NodeRestriction admission plugin checks the name
    if (a.verb !== 'create' && a.name !== node)
      return no('can only access node lease with the same name as the requesting node');
    return allow;
  }
}
