/**
 * The Node authorizer's graph, as an index keyed by node: for each node, the objects its bound pods name
 * (and the pods themselves), each counted once per pod that names it, so a check is two map lookups and a
 * pod's change or removal takes back exactly what it gave. kube's graph also leads PVC → PV → Secret; PVs and
 * PVCs are not served here, so a PV is never related to a node.
 */
import type { KubeObject } from '../api/index.js';
import { isMirrorPod, podNodeName, podReferences } from './pod-references.js';

/** The kinds a node reaches through its pods (kube's vertex types, by resource). */
export type GraphResource =
  'pods' | 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'persistentvolumes' | 'serviceaccounts';

const vertex = (resource: GraphResource, namespace: string, name: string): string =>
  `${resource}/${namespace}/${name}`;

/** What one pod gives its node. */
function edgesOf(pod: KubeObject): string[] {
  const ns = pod.metadata.namespace ?? '';
  const edges = [vertex('pods', ns, pod.metadata.name ?? '')];
  // a node makes its mirror pods itself: they must not lead it to anything else
  if (isMirrorPod(pod)) return edges;
  const refs = podReferences(pod);
  if (refs.serviceAccount) edges.push(vertex('serviceaccounts', ns, refs.serviceAccount));
  for (const s of refs.secrets) edges.push(vertex('secrets', ns, s));
  for (const c of refs.configMaps) edges.push(vertex('configmaps', ns, c));
  for (const c of refs.persistentVolumeClaims) edges.push(vertex('persistentvolumeclaims', ns, c));
  return edges;
}

export class NodeGraph {
  /** node → vertex → how many of its pods lead there */
  private readonly byNode = new Map<string, Map<string, number>>();
  /** `namespace/name` of a pod → its node and the edges it gave */
  private readonly pods = new Map<string, { node: string; edges: string[] }>();

  /** A pod added or changed: its old edges go, its current ones come (none while it is unscheduled). */
  setPod(pod: KubeObject): void {
    const key = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    const node = podNodeName(pod);
    const edges = node ? edgesOf(pod) : [];
    const old = this.pods.get(key);
    if (old && old.node === node && sameEdges(old.edges, edges)) return;
    if (old) this.take(old.node, old.edges);
    if (!node) {
      this.pods.delete(key);
      return;
    }
    this.pods.set(key, { node, edges });
    let index = this.byNode.get(node);
    if (!index) this.byNode.set(node, (index = new Map()));
    for (const e of edges) index.set(e, (index.get(e) ?? 0) + 1);
  }

  deletePod(pod: KubeObject): void {
    const key = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    const old = this.pods.get(key);
    if (!old) return;
    this.pods.delete(key);
    this.take(old.node, old.edges);
  }

  /** Whether `node` reaches the object through a pod bound to it. */
  related(node: string, resource: GraphResource, namespace: string, name: string): boolean {
    return (this.byNode.get(node)?.get(vertex(resource, namespace, name)) ?? 0) > 0;
  }

  private take(node: string, edges: string[]): void {
    const index = this.byNode.get(node);
    if (!index) return;
    for (const e of edges) {
      const n = (index.get(e) ?? 0) - 1;
      if (n > 0) index.set(e, n);
      else index.delete(e);
    }
    if (index.size === 0) this.byNode.delete(node);
  }
}

function sameEdges(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((e, i) => e === b[i]);
}
