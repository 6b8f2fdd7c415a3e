/**
 * PATCH media types, and which a resource accepts. kube compares the Content-Type up to its first `;`
 * exactly (no case folding, no trimming); anything else is a 415 listing the accepted types in this order.
 * Strategic merge needs Go struct metadata, so only built-in kinds take it; custom resources never do.
 */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const patchMediaTypes: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

const byMediaType = new Map(
  Object.entries(patchMediaTypes).map(([type, media]) => [media, type as PatchType]),
);

/** The patch type a Content-Type header names, or undefined (the caller answers 415). */
export function patchTypeOf(contentType: string): PatchType | undefined {
  const semi = contentType.indexOf(';');
  const media = semi > 0 ? contentType.slice(0, semi) : contentType;
  return byMediaType.get(media);
}

/** The API groups kube-apiserver v1.32 serves itself (including the aggregator's and apiextensions'). */
export const builtinGroups: ReadonlySet<string> = new Set([
  '',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

/**
 * A definition may say outright whether it takes strategic merge (proposed optional field
 * `strategicMergePatch` on ResourceDefinition; CRD-made definitions would set it false). Without it, the
 * group decides.
 */
export interface StrategicMergeSubject {
  group: string;
  strategicMergePatch?: boolean;
}

export function supportsStrategicMerge(def: StrategicMergeSubject): boolean {
  return def.strategicMergePatch ?? builtinGroups.has(def.group);
}

/** The media types a PATCH on this resource accepts, in kube's order (for the 415 message). */
export function supportedPatchTypes(def: StrategicMergeSubject): string[] {
  const types = [patchMediaTypes.json, patchMediaTypes.merge];
  if (supportsStrategicMerge(def)) types.push(patchMediaTypes.strategic);
  types.push(patchMediaTypes.apply);
  return types;
}
