/**
 * Names kube gives things in its OpenAPI documents: schema components (`io.k8s.api.core.v1.ConfigMap`),
 * operation ids (`listCoreV1NamespacedConfigMap`) and tags (`core_v1`).
 */
import type { ResourceDefinition } from '../registry/index.js';

/** Go package paths of the built-in groups, as their schema names start. */
const builtInPackages: Record<string, string> = {
  '': 'io.k8s.api.core',
  apps: 'io.k8s.api.apps',
  batch: 'io.k8s.api.batch',
  autoscaling: 'io.k8s.api.autoscaling',
  policy: 'io.k8s.api.policy',
  extensions: 'io.k8s.api.extensions',
  'admission.k8s.io': 'io.k8s.api.admission',
  'admissionregistration.k8s.io': 'io.k8s.api.admissionregistration',
  'apiextensions.k8s.io': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
  'apiregistration.k8s.io': 'io.k8s.kube-aggregator.pkg.apis.apiregistration',
  'authentication.k8s.io': 'io.k8s.api.authentication',
  'authorization.k8s.io': 'io.k8s.api.authorization',
  'certificates.k8s.io': 'io.k8s.api.certificates',
  'coordination.k8s.io': 'io.k8s.api.coordination',
  'discovery.k8s.io': 'io.k8s.api.discovery',
  'events.k8s.io': 'io.k8s.api.events',
  'flowcontrol.apiserver.k8s.io': 'io.k8s.api.flowcontrol',
  'imagepolicy.k8s.io': 'io.k8s.api.imagepolicy',
  'internal.apiserver.k8s.io': 'io.k8s.api.apiserverinternal',
  'networking.k8s.io': 'io.k8s.api.networking',
  'node.k8s.io': 'io.k8s.api.node',
  'rbac.authorization.k8s.io': 'io.k8s.api.rbac',
  'resource.k8s.io': 'io.k8s.api.resource',
  'scheduling.k8s.io': 'io.k8s.api.scheduling',
  'storage.k8s.io': 'io.k8s.api.storage',
  'storagemigration.k8s.io': 'io.k8s.api.storagemigration',
};

/** Groups Kubernetes itself defines (strategic merge patch and Protobuf belong to these, never to CRDs). */
export function isBuiltInGroup(group: string): boolean {
  return Object.hasOwn(builtInPackages, group);
}

/** `io.k8s.api.coordination.v1` for built-in groups; CRD groups reversed, `com.example.stable.v1`. */
export function schemaPrefix(group: string, version: string): string {
  const pkg = builtInPackages[group];
  if (pkg !== undefined) return `${pkg}.${version}`;
  return `${group.split('.').reverse().join('.')}.${version}`;
}

export function schemaName(group: string, version: string, kind: string): string {
  return `${schemaPrefix(group, version)}.${kind}`;
}

export function kindSchemaName(def: ResourceDefinition, version: string): string {
  return schemaName(def.group, version, def.kind);
}

export function listSchemaName(def: ResourceDefinition, version: string): string {
  return schemaName(def.group, version, def.listKind);
}

/** kube's operation-id sanitizer: drop non-letters (digits allowed after the first rune), capitalizing after. */
export function toValidOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const ch of s) {
    const letter = /\p{L}/u.test(ch) || ch === '_';
    if (letter || (i !== 0 && /\p{Nd}/u.test(ch))) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else capitalize = true;
    i++;
  }
  return out;
}

function groupToken(group: string): string {
  return group === '' ? 'core' : group.replace(/\.k8s\.io$/, '');
}

/** `CoreV1`, `CoordinationV1`, `RbacAuthorizationV1`, `StableExampleComV1`. */
export function operationGroupVersion(group: string, version: string): string {
  return toValidOperationId(groupToken(group), true) + toValidOperationId(version, true);
}

/** `core_v1`, `coordination_v1`, `rbacAuthorization_v1`. */
export function operationTag(group: string, version?: string): string {
  const tag = toValidOperationId(groupToken(group), false);
  return version === undefined ? tag : `${tag}_${toValidOperationId(version, false)}`;
}

/** `/api/v1` or `/apis/<group>/<version>` */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}
