/** Group/version/kind and group/version/resource: how kube names a type and its REST collection. */

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** `v1` for the core group, `<group>/<version>` otherwise (an object's apiVersion) */
export function groupVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}
