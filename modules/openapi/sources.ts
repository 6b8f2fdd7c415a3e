/**
 * Every component a document may reference, per set of definitions: each kind and list schema for each served
 * version, every shared sub-schema the definitions carry (`x-pgkube-ref` nodes with content; the first wins), and
 * our apimachinery library for the rest.
 */
import { versionView, type ResourceDefinition, type Schema } from '../registry/index.js';
import { memo, subresourceKind } from '../discovery/index.js';
import { apiSchemaKinds, apiSchemas } from './api-schemas.js';
import { apiVersionField, kindField, META, metaObjectSchemas, ref } from './meta-schemas.js';
import { kindSchemaName, listSchemaName } from './names.js';
import { hasContent, type ComponentSource } from './schema.js';

function rootSchema(def: ResourceDefinition): Schema {
  return { ...def.schema, description: def.schema.description ?? def.description };
}

function listSchema(def: ResourceDefinition, version: string): Schema {
  return {
    type: 'object',
    description: `A list of ${def.kind} objects.`,
    required: ['items'],
    properties: {
      apiVersion: apiVersionField,
      items: { type: 'array', description: 'The objects.', items: ref(kindSchemaName(def, version)) },
      kind: kindField,
      metadata: ref(`${META}.ListMeta`, 'Standard list metadata.'),
    },
  };
}

function collectShared(node: Schema, into: Map<string, ComponentSource>, seen: Set<Schema>): void {
  if (seen.has(node)) return;
  seen.add(node);
  const name = node['x-pgkube-ref'];
  // the library's own request types (DeleteOptions in an Eviction) keep the library's component
  if (name !== undefined && hasContent(node) && !into.has(name) && !(name in apiSchemas))
    into.set(name, { schema: node });
  for (const sub of Object.values(node.properties ?? {})) collectShared(sub, into, seen);
  if (node.items) collectShared(node.items, into, seen);
  if (typeof node.additionalProperties === 'object') collectShared(node.additionalProperties, into, seen);
}

export function componentSources(defs: readonly ResourceDefinition[]): ReadonlyMap<string, ComponentSource> {
  return memo(defs, 'openapi:sources', () => {
    const sources = new Map<string, ComponentSource>();
    for (const def of defs) {
      for (const version of def.versions) {
        const gv = { group: def.group, version };
        sources.set(kindSchemaName(def, version), {
          schema: rootSchema(versionView(def, version)),
          gvks: [{ ...gv, kind: def.kind }],
        });
        sources.set(listSchemaName(def, version), {
          schema: listSchema(def, version),
          gvks: [{ ...gv, kind: def.listKind }],
        });
      }
    }
    const seen = new Set<Schema>();
    for (const def of defs)
      for (const version of def.versions) collectShared(versionView(def, version).schema, sources, seen);
    // a subresource's own kind (serviceaccounts/token: TokenRequest) is a component of its group-version
    for (const def of defs) {
      for (const [sub, schema] of Object.entries(def.subresourceSchemas ?? {})) {
        const name = schema['x-pgkube-ref'];
        if (name && !sources.has(name)) {
          sources.set(name, { schema, gvks: [subresourceKind(def, def.storageVersion, sub)] });
        }
        collectShared(schema, sources, seen);
      }
    }
    for (const [name, schema] of Object.entries({ ...metaObjectSchemas, ...apiSchemas })) {
      if (sources.has(name)) continue;
      const kind = apiSchemaKinds[name];
      const gvks =
        kind === undefined
          ? undefined
          : kind === 'every'
            ? 'every'
            : [{ ...kind, kind: name.split('.').pop()! }];
      sources.set(name, { schema, gvks });
    }
    return sources;
  });
}

/** Every served group-version plus core v1, as kube lists them on DeleteOptions and WatchEvent. */
export function allGroupVersions(defs: readonly ResourceDefinition[]): { group: string; version: string }[] {
  return memo(defs, 'openapi:group-versions', () => {
    const seen = new Map<string, { group: string; version: string }>([['/v1', { group: '', version: 'v1' }]]);
    for (const def of defs)
      for (const version of def.versions) seen.set(`${def.group}/${version}`, { group: def.group, version });
    return [...seen.values()].sort((a, b) =>
      a.group !== b.group
        ? a.group < b.group
          ? -1
          : 1
        : a.version < b.version
          ? -1
          : a.version > b.version
            ? 1
            : 0,
    );
  });
}

/** Protobuf is offered for built-in kinds whose schema carries protobuf field numbers. */
export function hasProtobufNumbers(schema: Schema): boolean {
  return Object.values(schema.properties ?? {}).some((p) => p['x-pgkube-protobuf'] !== undefined);
}
