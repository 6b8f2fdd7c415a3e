/**
 * Turns definition schemas into OpenAPI schemas. Nodes marked `x-pgkube-ref` become `$ref`s to shared components
 * (collected on the way, with everything they reference); private `x-pgkube-*` markers never reach the output.
 * v3 wraps a `$ref` that carries its own description/default in `allOf`, as kube does since OpenAPI 3.0 ignores
 * `$ref` siblings; v2 keeps them side by side and gets kube's v2 simplifications (no nullable, no typed
 * properties under preserve-unknown-fields).
 */
import type { Schema } from '../api/index.js';
import type { GroupVersionKind } from '../discovery/index.js';

export type Json = Record<string, unknown>;
export type Dialect = 'v3' | 'v2';

/** A component's source: its schema and the kinds it is the schema of. */
export interface ComponentSource {
  schema: Schema;
  gvks?: GroupVersionKind[] | 'every';
}

const siblingKeys = ['description', 'default', 'nullable'] as const;

function isPrivate(key: string): boolean {
  return key.startsWith('x-pgkube-');
}

/** True when a ref-marked node carries the shared schema itself, not just a pointer to it. */
export function hasContent(node: Schema): boolean {
  return Object.keys(node).some((k) => !isPrivate(k) && !(siblingKeys as readonly string[]).includes(k));
}

function clone<T>(value: T): T {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

export class SchemaBuilder {
  private readonly components = new Map<string, Json>();

  constructor(
    readonly dialect: Dialect,
    private readonly sources: ReadonlyMap<string, ComponentSource>,
    /** group-versions that kinds marked 'every' (DeleteOptions, WatchEvent) are listed under */
    private readonly everyGroupVersion: readonly { group: string; version: string }[],
  ) {}

  refTo(name: string): string {
    return this.dialect === 'v3' ? `#/components/schemas/${name}` : `#/definitions/${name}`;
  }

  /** `{$ref}` to component `name`, which is created (with its dependencies) if needed. */
  ref(name: string): Json {
    this.require(name);
    return { $ref: this.refTo(name) };
  }

  /** Makes sure component `name` exists: from the sources, else an open object so the `$ref` still resolves. */
  require(name: string): void {
    if (this.components.has(name)) return;
    const source = this.sources.get(name);
    if (source) this.define(name, source.schema, source.gvks);
    else this.components.set(name, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  }

  /** Adds component `name` built from `schema` unless it exists. */
  define(name: string, schema: Schema, gvks?: GroupVersionKind[] | 'every'): void {
    if (this.components.has(name)) return;
    // placeholder first: a schema that (indirectly) refers to itself stops here
    const out: Json = {};
    this.components.set(name, out);
    Object.assign(out, this.convertNode(schema, true));
    const list =
      gvks === 'every' ? this.everyGroupVersion.map((gv) => ({ ...gv, kind: name.split('.').pop()! })) : gvks;
    if (list?.length) {
      out['x-kubernetes-group-version-kind'] = list.map((g) => ({
        group: g.group,
        kind: g.kind,
        version: g.version,
      }));
    }
  }

  /** Converts one schema node for use inside a component or operation. */
  convert(node: Schema): Json {
    return this.convertNode(node, false);
  }

  private convertNode(node: Schema, isComponentRoot: boolean): Json {
    const refName = node['x-pgkube-ref'];
    if (refName !== undefined && !isComponentRoot) {
      if (hasContent(node) && !this.components.has(refName)) this.define(refName, node);
      else this.require(refName);
      return this.refUse(refName, node);
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (isPrivate(key) || value === undefined) continue;
      if (key === 'properties') {
        const props: Json = {};
        for (const [p, sub] of Object.entries(value as Record<string, Schema>)) props[p] = this.convert(sub);
        out.properties = props;
      } else if (key === 'items') out.items = this.convert(value as Schema);
      else if (key === 'additionalProperties') {
        out.additionalProperties = typeof value === 'boolean' ? value : this.convert(value as Schema);
      } else out[key] = clone(value);
    }
    if (this.dialect === 'v2') simplifyForV2(out, node);
    return out;
  }

  private refUse(name: string, node: Schema): Json {
    const siblings: Json = {};
    for (const k of siblingKeys) if (node[k] !== undefined) siblings[k] = clone(node[k]);
    // a use that only repeats the type's own description adds nothing (kubectl explain would print it twice)
    if (siblings.description === this.components.get(name)?.description) delete siblings.description;
    if (this.dialect === 'v2') {
      delete siblings.nullable;
      return { $ref: this.refTo(name), ...siblings };
    }
    if (Object.keys(siblings).length === 0) return { $ref: this.refTo(name) };
    return { allOf: [{ $ref: this.refTo(name) }], ...siblings };
  }

  /** All components built so far, sorted by name as kube publishes them. */
  result(): Record<string, Json> {
    return Object.fromEntries(
      [...this.components.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  }
}

/** kube's CRD schema → OpenAPI v2 rules: v2 has no nullable, and kubectl chokes on typed unknown-field holders. */
function simplifyForV2(out: Json, node: Schema): void {
  if (out.nullable) {
    delete out.type;
    delete out.items;
    delete out.properties;
  }
  delete out.nullable;
  if (out['x-kubernetes-preserve-unknown-fields']) {
    delete out.items;
    delete out.properties;
  }
  if (out.type === 'array' && out.items === undefined) delete out.type;
  if (Array.isArray(out.required) && node.properties) {
    const required = out.required.filter((f: string) => !node.properties?.[f]?.nullable);
    if (required.length) out.required = required;
    else delete out.required;
  }
}
