/**
 * What the checkpoint endpoint needs to know of the Pods the node runs: the node agent's main loop keeps them and
 * answers through this port.
 */

export interface ContainerOnNode {
  /** the container's name in the Pod spec (containers, init containers and ephemeral containers alike) */
  name: string;
  /** the runtime's container id (CRI container_id) while it has one; unset: not created (yet) */
  id?: string;
  image?: string;
  /** what the simulated runtime writes into its archive: the container's state as the agent reports it */
  state?: unknown;
}

export interface PodOnNode {
  uid: string;
  namespace: string;
  name: string;
  containers: readonly ContainerOnNode[];
}

export interface PodsOnNode {
  /** the Pod `name` in `namespace` bound to this node, or undefined */
  find(namespace: string, name: string): PodOnNode | undefined | Promise<PodOnNode | undefined>;
}
