/**
 * The definition of a virtual kind: served for create only and never stored (kube's create-only REST
 * storages: the authentication and access reviews); the module owning its answer gives it to VirtualKinds.
 */
import type { ResourceDefinition, Schema, Scope } from '../registry/index.js';

export interface VirtualKind {
  group: string;
  version: string;
  resource: string;
  kind: string;
  scope: Scope;
  schema: Schema;
}

export function virtualKind(k: VirtualKind): ResourceDefinition {
  return {
    group: k.group,
    versions: [k.version],
    storageVersion: k.version,
    resource: k.resource,
    singular: k.kind.toLowerCase(),
    kind: k.kind,
    listKind: `${k.kind}List`,
    scope: k.scope,
    verbs: ['create'],
    nameRule: 'dns1123Subdomain',
    schema: k.schema,
    description: k.schema.description ?? '',
    strategy: {},
    storage: 'virtual',
  };
}
