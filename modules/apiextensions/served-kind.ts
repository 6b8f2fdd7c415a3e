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
  type VersionData,
  type VersionLifecycle,
} from '../registry/index.js';
import { converterOf } from './conversion.js';
import { crdColumns } from './printer-columns.js';
import { customResourceStrategies } from './custom-resource-strategy.js';
import type { CustomResourceDefinition, CrdVersion } from './crd-shape.js';

/** kube's `metadata` of a custom resource as published and pruned: ObjectMeta, whatever the CRD says of it. */
function publishedSchema(crd: CustomResourceDefinition, version: CrdVersion): Schema {
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

const established = (crd: CustomResourceDefinition): boolean =>
  (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');

/**
 * The kind `crd` defines, or undefined when it is not to be served (not Established, no served version, being
 * deleted: kube keeps serving a Terminating CRD's objects to their finalizers, so deletion does not stop it).
 */
export function servedKindOf(crd: CustomResourceDefinition): ResourceDefinition | undefined {
  if (!established(crd)) return undefined;
  const names = crd.status?.acceptedNames;
  if (!names?.plural || !names.kind) return undefined;
  const served = crd.spec.versions
    .filter((v) => v.served)
    .sort((a, b) => compareKubeAwareVersions(a.name, b.name));
  const storage = crd.spec.versions.find((v) => v.storage);
  if (served.length === 0 || !storage) return undefined;
  const perVersion: Record<string, VersionData> = {};
  const lifecycle: Record<string, VersionLifecycle> = {};
  for (const version of crd.spec.versions) {
    const subresources = [
      ...(version.subresources?.status ? ['status'] : []),
      ...(version.subresources?.scale ? ['scale'] : []),
    ];
    const { strategy, subresourceStrategies } = customResourceStrategies(crd, version);
    perVersion[version.name] = {
      schema: publishedSchema(crd, version),
      printerColumns: crdColumns(version.additionalPrinterColumns),
      subresources,
      scale: version.subresources?.scale,
      strategy,
      subresourceStrategies,
    };
    if (version.deprecated) {
      lifecycle[version.name] = {
        warning:
          version.deprecationWarning ?? `${crd.spec.group}/${version.name} ${names.kind} is deprecated`,
      };
    }
  }
  const preferred = perVersion[served[0].name];
  return {
    group: crd.spec.group,
    versions: served.map((v) => v.name),
    storageVersion: storage.name,
    lifecycle,
    resource: names.plural,
    singular: names.singular || names.kind.toLowerCase(),
    kind: names.kind,
    listKind: names.listKind || `${names.kind}List`,
    scope: crd.spec.scope,
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
    convert: crd.spec.versions.length > 1 ? converterOf(crd, names.kind) : undefined,
  };
}

/** The CRD a stored object is, read leniently: a CRD that does not have this shape is not served. */
export function asCrd(obj: KubeObject): CustomResourceDefinition | undefined {
  const spec = obj.spec;
  if (!isPlainObject(spec) || typeof spec.group !== 'string' || !Array.isArray(spec.versions))
    return undefined;
  return obj as unknown as CustomResourceDefinition;
}
