/** The pods bound to each node that still hold its resources (not Succeeded or Failed), from a pod informer's events. */
import type { KubeObject } from '../api/index.js';

const keyOf = (pod: KubeObject) => `${pod.metadata.namespace}/${pod.metadata.name}`;
const nodeOf = (pod: KubeObject): string => {
  const spec = pod.spec as { nodeName?: unknown } | undefined;
  return typeof spec?.nodeName === 'string' ? spec.nodeName : '';
};
const isTerminal = (pod: KubeObject) => {
  const phase = (pod.status as { phase?: unknown } | undefined)?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
};

export class PodsByNode {
  private readonly byNode = new Map<string, Map<string, KubeObject>>();
  private readonly nodeOfKey = new Map<string, string>();

  /** Follows one informer event; answers the node the pod is (or was) on, '' for none. */
  update(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: KubeObject): string {
    const key = keyOf(pod);
    const before = this.nodeOfKey.get(key);
    if (before !== undefined) {
      this.byNode.get(before)?.delete(key);
      this.nodeOfKey.delete(key);
    }
    const node = nodeOf(pod);
    if (type !== 'DELETED' && node && !isTerminal(pod)) {
      let pods = this.byNode.get(node);
      if (!pods) this.byNode.set(node, (pods = new Map()));
      pods.set(key, pod);
      this.nodeOfKey.set(key, node);
    }
    return node || before || '';
  }

  on(node: string): KubeObject[] {
    return [...(this.byNode.get(node)?.values() ?? [])];
  }

  clear(): void {
    this.byNode.clear();
    this.nodeOfKey.clear();
  }
}
