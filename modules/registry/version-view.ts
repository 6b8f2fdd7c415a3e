/**
 * One version's view of a definition: the same shape, with the schema, printer columns and subresources that
 * version declares in `perVersion`. Views are made once per definition object and version (readers on the hot
 * path get the same object every time); a definition that is replaced brings new views with it.
 */
import type { KubeObject } from '../api/index.js';
import type { ResourceDefinition } from './definition.js';

const views = new WeakMap<ResourceDefinition, Map<string, ResourceDefinition>>();

export function versionView(def: ResourceDefinition, version: string): ResourceDefinition {
  const own = def.perVersion?.[version];
  if (!own) return def;
  let byVersion = views.get(def);
  if (!byVersion) views.set(def, (byVersion = new Map()));
  let view = byVersion.get(version);
  if (!view) {
    view = { ...def, servedVersion: version };
    if (own.schema) view.schema = own.schema;
    if (own.printerColumns) view.printerColumns = own.printerColumns;
    if (own.subresources) view.subresources = own.subresources;
    if (own.scale) view.scale = own.scale;
    if (own.strategy) view.strategy = own.strategy;
    if (own.subresourceStrategies) view.subresourceStrategies = own.subresourceStrategies;
    byVersion.set(version, view);
  }
  return view;
}

/** true when stored objects are not what the view serves: they must be converted on the way out and in. */
export function convertsStored(def: ResourceDefinition): boolean {
  return !!(def.convert || def.storedWith);
}

/** Stored objects as the view's version has them. */
export async function servedAs(def: ResourceDefinition, objects: KubeObject[]): Promise<KubeObject[]> {
  const own = def.storedWith ? objects.map((o) => def.storedWith!.fromStored(o)) : objects;
  return def.convert && def.servedVersion && own.length > 0 ? def.convert(own, def.servedVersion) : own;
}

/** A stored object as the view's version has it. */
export async function servedOne(def: ResourceDefinition, obj: KubeObject): Promise<KubeObject> {
  return convertsStored(def) ? (await servedAs(def, [obj]))[0] : obj;
}

/** An object of the view's version as it is stored. */
export async function storedAs(def: ResourceDefinition, obj: KubeObject): Promise<KubeObject> {
  const own = def.convert ? (await def.convert([obj], def.storageVersion))[0] : obj;
  return def.storedWith ? def.storedWith.toStored(own) : own;
}
