/**
 * A CRD, once Established, as the kind it defines: one ResourceDefinition whose served versions each carry their
 * own schema, printer columns, subresources and strategy. Built-in and custom kinds are the same thing from
 * here on; nothing generic learns about CRDs.
 */
import { isPlainObject, objectMetaSchema, type KubeObject, type Schema } from '../api/index.js';
import { compareKubeAwareVersions } from '../discovery/index.js';
import {
  allVerbs,
  type ResourceDefinition,
  type ScalePaths,
  type VersionData,
  type VersionLifecycle,
} from '../registry/index.js';
import { converterOf } from './conversion.js';
import { customResourceStrategies } from './custom-resource-strategy.js';
import {
  customResourceColumns,
  isConditionTrue,
  type CRDVersion,
  type CustomResourceDefinition,
} from './crd/index.js';

/** kube's `metadata` of a custom resource as published and pruned: ObjectMeta, whatever the CRD says of it. */
function publishedSchema(crd: CustomResourceDefinition, version: CRDVersion): Schema {
  const own: Schema = version.schema?.openAPIV3Schema ?? { type: 'object' };
  const properties: Record<string, Schema> = { ...(own.properties ?? {}) };
  properties.apiVersion = {
    type: 'string',
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
  };
  properties.kind = {
    type: 'string',
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.',
  };
  properties.metadata = objectMetaSchema;
  const schema: Schema = { ...own, type: 'object', properties };
  if (!schema.description)
    schema.description = `${crd.status?.acceptedNames?.kind ?? ''} is a custom resource.`;
  return schema;
}

/** A version's scale subresource, when it names both replica paths (validation makes sure it does). */
function scalePaths(version: CRDVersion): ScalePaths | undefined {
  const scale = version.subresources?.scale;
  if (!scale?.specReplicasPath || !scale.statusReplicasPath) return undefined;
  return { ...scale, specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath };
}

/**
 * The kind `crd` defines, or undefined when it is not to be served (not Established, no served version, being
 * deleted: kube keeps serving a Terminating CRD's objects to their finalizers, so deletion does not stop it).
 */
export function servedKindOf(crd: CustomResourceDefinition): ResourceDefinition | undefined {
  if (!isConditionTrue(crd, 'Established')) return undefined;
  const names = crd.status?.acceptedNames;
  const { group, scope } = crd.spec;
  const plural = names?.plural;
  const kind = names?.kind;
  if (!plural || !kind || !group || (scope !== 'Namespaced' && scope !== 'Cluster')) return undefined;
  // a stored CRD passed validation: every version has a name
  const versions = (crd.spec.versions ?? []).filter((v): v is CRDVersion & { name: string } => !!v.name);
  const served = versions.filter((v) => v.served).sort((a, b) => compareKubeAwareVersions(a.name, b.name));
  const storage = versions.find((v) => v.storage);
  if (served.length === 0 || !storage) return undefined;
  const perVersion: Record<string, VersionData> = {};
  const lifecycle: Record<string, VersionLifecycle> = {};
  for (const version of versions) {
    const subresources = [
      ...(version.subresources?.status ? ['status'] : []),
      ...(version.subresources?.scale ? ['scale'] : []),
    ];
    const { strategy, subresourceStrategies } = customResourceStrategies(crd, version);
    perVersion[version.name] = {
      schema: publishedSchema(crd, version),
      printerColumns: customResourceColumns(version.additionalPrinterColumns),
      subresources,
      scale: scalePaths(version),
      strategy,
      subresourceStrategies,
    };
    if (version.deprecated) {
      lifecycle[version.name] = {
        warning: version.deprecationWarning ?? `${group}/${version.name} ${kind} is deprecated`,
      };
    }
  }
  const preferred = perVersion[served[0].name];
  return {
    group,
    versions: served.map((v) => v.name),
    storageVersion: storage.name,
    lifecycle,
    resource: plural,
    singular: names.singular || kind.toLowerCase(),
    kind,
    listKind: names.listKind || `${kind}List`,
    scope,
    shortNames: names.shortNames,
    categories: names.categories,
    verbs: allVerbs,
    nameRule: 'dns1123Subdomain',
    tracksGeneration: true,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    schema: preferred.schema!,
    description: preferred.schema!.description ?? '',
    printerColumns: preferred.printerColumns,
    subresources: preferred.subresources,
    scale: preferred.scale,
    strategy: preferred.strategy!,
    subresourceStrategies: preferred.subresourceStrategies,
    perVersion,
    untyped: true,
    declaredServing: true,
    convert: converterOf(crd, kind),
  };
}

/** The CRD a stored object is, read leniently: a CRD that does not have this shape is not served. */
export function asCrd(obj: KubeObject): CustomResourceDefinition | undefined {
  const spec = obj.spec;
  if (!isPlainObject(spec) || typeof spec.group !== 'string' || !Array.isArray(spec.versions))
    return undefined;
  return obj as unknown as CustomResourceDefinition;
}
