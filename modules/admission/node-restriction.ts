/**
 * NodeRestriction (kube's plugin of that name): what the Node authorizer lets a kubelet write, limited to its
 * own objects, which the authorizer cannot tell (a create's name, the object written). A node may create
 * only mirror pods bound to itself, delete, evict and report the status of only pods bound to itself,
 * write only its own Node without changing its taints or restricted labels, use only its own Lease, and ask
 * tokens only for pods bound to itself. Mutating stage, as kube's: it sees the write as the client made it.
 * PVC status and CSINode rules are kube's too, but those kinds are not served here.
 */
import { isDeepStrictEqual } from 'node:util';
import { ApiError, isPlainObject, type KubeObject } from '../api/index.js';
import {
  isMirrorPod,
  MIRROR_POD_ANNOTATION,
  NODE_LEASE_NAMESPACE,
  nodeNameOf,
  podNodeName,
  podReferences,
} from '../authorization/index.js';
import type { AdmissionAttributes } from '../registry/index.js';
import type { Store } from '../storage/index.js';
import { forbiddenNodeLabels } from './node-labels.js';
import type { AdmissionPlugin } from './plugin.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

/** kube's admission.NewForbidden: the resource and name the request is about, and why. */
function forbidden(a: AdmissionAttributes, why: string): ApiError {
  const meta = a.object?.metadata;
  const name = a.name || meta?.name || meta?.generateName || 'Unknown';
  const gr = { group: a.def.group, resource: a.def.resource };
  const qualified = gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
  return ApiError.forbidden(`${qualified} "${name}" is forbidden: ${why}`, gr, name);
}

/** nil and empty compare equal, as kube's semantic equality has it */
const same = (x: unknown, y: unknown): boolean => {
  const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);
  return (empty(x) && empty(y)) || isDeepStrictEqual(x, y);
};

export class NodeRestriction implements AdmissionPlugin {
  readonly name = 'NodeRestriction';

  /** `store`: where the pods and nodes a request names are read (kube reads its informers' listers) */
  constructor(private readonly store: Store) {}

  admit(a: AdmissionAttributes): void | Promise<void> {
    const node = nodeNameOf(a.ctx.user);
    if (node === undefined) return;
    if (!node) throw forbidden(a, `could not determine node from user "${a.ctx.user.name}"`);
    const { group, resource } = a.def;
    if (group === 'coordination.k8s.io' && resource === 'leases') return this.lease(node, a);
    if (group !== '') return;
    switch (resource) {
      case 'pods':
        if (a.subresource === '') return this.pod(node, a);
        if (a.subresource === 'status') return this.podStatus(node, a);
        if (a.subresource === 'eviction') return this.eviction(node, a);
        throw forbidden(
          a,
          `unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`,
        );
      case 'nodes':
        return this.node(node, a);
      case 'serviceaccounts':
        return this.token(node, a);
      default:
        return;
    }
  }

  private async pod(node: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation === 'CREATE') return this.mirrorPod(node, a, a.object!);
    if (a.operation === 'DELETE') {
      if (podNodeName(a.oldObject) !== node)
        throw forbidden(a, `node "${node}" can only delete pods with spec.nodeName set to itself`);
      return;
    }
    throw forbidden(
      a,
      `unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`,
    );
  }

  private async mirrorPod(node: string, a: AdmissionAttributes, pod: KubeObject): Promise<void> {
    if (!isMirrorPod(pod))
      throw forbidden(
        a,
        `pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${node}" can only create mirror pods`,
      );
    if (podNodeName(pod) !== node)
      throw forbidden(a, `node "${node}" can only create pods with spec.nodeName set to itself`);
    const owners = pod.metadata.ownerReferences ?? [];
    if (owners.length > 1)
      throw forbidden(a, `node "${node}" can only create pods with a single owner reference set to itself`);
    const owner = owners[0];
    if (!owner || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node)
      throw forbidden(a, `node "${node}" can only create pods with an owner reference set to itself`);
    if (owner.controller !== true)
      throw forbidden(
        a,
        `node "${node}" can only create pods with a controller owner reference set to itself`,
      );
    if (owner.blockOwnerDeletion === true)
      throw forbidden(a, `node "${node}" must not set blockOwnerDeletion on an owner reference`);
    const stored = await this.store.get({ resource: '/nodes', namespace: '', name: node });
    if (!stored) throw ApiError.notFound({ group: '', resource: 'nodes' }, node);
    const uid = stored.object.metadata.uid ?? '';
    if (owner.uid !== uid)
      throw forbidden(a, `node ${node} UID mismatch: expected ${owner.uid ?? ''} got ${uid}`);
    // a node must not make a pod that would give it other objects
    const spec = obj(pod.spec);
    if (spec.serviceAccountName)
      throw forbidden(a, `node "${node}" can not create pods that reference a service account`);
    const refs = podReferences(pod);
    if (refs.secrets.size > 0)
      throw forbidden(a, `node "${node}" can not create pods that reference secrets`);
    if (refs.configMaps.size > 0)
      throw forbidden(a, `node "${node}" can not create pods that reference configmaps`);
    const volumes = objs(spec.volumes);
    if (volumes.some((v) => objs(obj(v.projected).sources).some((s) => isPlainObject(s.clusterTrustBundle))))
      throw forbidden(a, `node "${node}" can not create pods that reference clustertrustbundles`);
    if (volumes.some((v) => isPlainObject(v.persistentVolumeClaim)))
      throw forbidden(a, `node "${node}" can not create pods that reference persistentvolumeclaims`);
  }

  private podStatus(node: string, a: AdmissionAttributes): void {
    if (a.operation !== 'UPDATE') throw forbidden(a, `unexpected operation "${a.operation}"`);
    const old = a.oldObject!;
    if (podNodeName(old) !== node)
      throw forbidden(
        a,
        `node "${node}" can only update pod status for pods with spec.nodeName set to itself`,
      );
    if (!same(old.metadata.labels ?? {}, a.object!.metadata.labels ?? {}))
      throw forbidden(a, `node "${node}" cannot update labels through pod status`);
    const claims = (p: KubeObject) =>
      objs(obj(p.status).resourceClaimStatuses).map((c) => [c.name, c.resourceClaimName ?? null]);
    if (!isDeepStrictEqual(claims(old), claims(a.object!)))
      throw forbidden(a, `node "${node}" cannot update resource claim statues`);
  }

  /** pods/eviction: the pod named must be bound to the node (404 when there is none, as kube). */
  private async eviction(node: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE') throw forbidden(a, `unexpected operation ${a.operation}`);
    const name = a.name || a.object?.metadata.name;
    if (!name) throw forbidden(a, 'could not determine pod from request data');
    const pod = await this.storedPod(a.namespace, name);
    if (podNodeName(pod) !== node)
      throw forbidden(a, `node ${node} can only evict pods with spec.nodeName set to itself`);
  }

  private node(node: string, a: AdmissionAttributes): void {
    if (a.name !== node) throw forbidden(a, `node "${node}" is not allowed to modify node "${a.name}"`);
    const spec = obj(a.object?.spec);
    if (a.operation === 'CREATE') {
      if (spec.configSource != null)
        throw forbidden(a, `node "${node}" is not allowed to create pods with a non-nil configSource`);
      const labels = forbiddenNodeLabels(a.object!.metadata.labels, undefined);
      if (labels.length > 0)
        throw forbidden(a, `node "${node}" is not allowed to set the following labels: ${labels.join(', ')}`);
    }
    if (a.operation === 'UPDATE') {
      const oldSpec = obj(a.oldObject!.spec);
      if (spec.configSource != null && !same(spec.configSource, oldSpec.configSource))
        throw forbidden(
          a,
          `node "${node}" is not allowed to update configSource to a new non-nil configSource`,
        );
      if (!same(spec.taints, oldSpec.taints))
        throw forbidden(a, `node "${node}" is not allowed to modify taints`);
      const labels = forbiddenNodeLabels(a.object!.metadata.labels, a.oldObject!.metadata.labels);
      // kube's message names no node here
      if (labels.length > 0) throw forbidden(a, `is not allowed to modify labels: ${labels.join(', ')}`);
    }
  }

  /** serviceaccounts/token: only bound to a pod that runs on the node. */
  private async token(node: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    const ref = obj(obj(a.object?.spec).boundObjectRef);
    if (ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name)
      throw forbidden(a, 'node requested token not bound to a pod');
    if (!ref.uid) throw forbidden(a, 'node requested token with a pod binding without a uid');
    const pod = await this.storedPod(a.namespace, String(ref.name));
    if (ref.uid !== pod.metadata.uid)
      throw forbidden(
        a,
        `the UID in the bound object reference (${String(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    if (podNodeName(pod) !== node)
      throw forbidden(a, 'node requested token bound to a pod scheduled on a different node');
  }

  private lease(node: string, a: AdmissionAttributes): void {
    if (a.namespace !== NODE_LEASE_NAMESPACE)
      throw forbidden(a, `can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
    const name = a.operation === 'CREATE' ? a.object?.metadata.name : a.name;
    if (name !== node)
      throw forbidden(a, 'can only access node lease with the same name as the requesting node');
  }

  private async storedPod(namespace: string, name: string): Promise<KubeObject> {
    const stored = await this.store.get({ resource: '/pods', namespace, name });
    if (!stored) throw ApiError.notFound({ group: '', resource: 'pods' }, name);
    return stored.object;
  }
}
