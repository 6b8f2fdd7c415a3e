/**
 * OpenAPI v3 as kube-apiserver publishes it: an index at /openapi/v3 pointing at one document per group-version
 * (plus /api, /apis, /apis/<group> and /version), each URL pinned by the hash of the document so clients may
 * cache it forever.
 */
import { createHash } from 'node:crypto';
import { groupVersion, type ResourceDefinition } from '../registry/index.js';
import { memo } from '../discovery/index.js';
import { definitionsServing } from '../discovery/index.js';
import { groupVersions, orderedGroups } from '../discovery/index.js';
import type { ParamSpec } from './params.js';
import type { OperationSpec, PathSpec, Payload } from './operations.js';
import { discoveryRoot, groupVersionRoot } from './root-routes.js';
import { resourcePaths } from './routes.js';
import { SchemaBuilder, type Json } from './schema.js';
import { allGroupVersions, componentSources } from './sources.js';

export const openApiInfo = { title: 'Kubernetes', version: 'unversioned' };
export const bearerToken = {
  description: 'Bearer Token authentication',
  in: 'header',
  name: 'authorization',
  type: 'apiKey',
};

export interface OpenApiV3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

export interface RenderedDocument {
  doc: Json;
  /** the exact body to send */
  json: string;
  /** uppercase hex sha512 of `json`, as kube's `?hash=` and ETag */
  hash: string;
}

/** An object with its keys in byte order, as kube's documents have them (stable hashes). */
export function sortedKeys<T>(entries: [string, T][]): Record<string, T> {
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function param(p: ParamSpec): Json {
  return {
    description: p.description,
    in: p.in,
    name: p.name,
    ...(p.required ? { required: true } : {}),
    schema: { type: p.type, uniqueItems: true },
  };
}

function payloadSchema(b: SchemaBuilder, payload: Payload): Json {
  return 'component' in payload ? b.ref(payload.component) : { type: 'string' };
}

function operation(b: SchemaBuilder, op: OperationSpec): Json {
  const out: Json = { description: op.description, operationId: op.operationId };
  if (op.params.length) out.parameters = op.params.map(param);
  if (op.body) {
    const schema = payloadSchema(b, op.body.payload);
    out.requestBody = {
      content: Object.fromEntries(op.body.contentTypes.map((t) => [t, { schema }])),
      ...(op.body.required ? { required: true } : {}),
    };
  }
  out.responses = Object.fromEntries(
    op.responses.map((r) => {
      if (!r.payload) return [r.code, { description: r.description }];
      const schema = payloadSchema(b, r.payload);
      return [
        r.code,
        { content: Object.fromEntries(op.produces.map((t) => [t, { schema }])), description: r.description },
      ];
    }),
  );
  return withOperationExtensions(out, op);
}

export function renderPaths(b: SchemaBuilder, paths: PathSpec[]): Record<string, Json> {
  return sortedKeys(
    paths.map((p): [string, Json] => {
      const item: [string, unknown][] = p.ops.map((op) => [op.method, operation(b, op)]);
      if (p.params.length) item.push(['parameters', p.params.map(param)]);
      return [p.path, sortedKeys(item)];
    }),
  );
}

function render(
  defs: readonly ResourceDefinition[],
  paths: PathSpec[],
  kinds: string[] = [],
): RenderedDocument {
  const b = new SchemaBuilder('v3', componentSources(defs), allGroupVersions(defs));
  for (const name of kinds) b.require(name);
  const renderedPaths = renderPaths(b, paths);
  const doc: Json = {
    components: { schemas: b.result(), securitySchemes: { BearerToken: bearerToken } },
    info: openApiInfo,
    openapi: '3.0.0',
    paths: renderedPaths,
  };
  const json = JSON.stringify(doc);
  return { doc, json, hash: createHash('sha512').update(json).digest('hex').toUpperCase() };
}

/** Keys of the index: `api`, `api/v1`, `apis`, `apis/<group>`, `apis/<group>/<version>`, `version`. */
export function openApiV3Keys(defs: readonly ResourceDefinition[]): string[] {
  return memo(defs, 'openapi3:keys', () => {
    const keys = ['api', 'apis', 'version'];
    for (const v of groupVersions(defs, '')) keys.push(`api/${v}`);
    for (const g of orderedGroups(defs, 'group')) {
      keys.push(`apis/${g.group}`);
      for (const v of g.versions) keys.push(`apis/${groupVersion(g.group, v)}`);
    }
    return keys.sort();
  });
}

/** The document behind one index key, with its JSON and hash; undefined for keys the index does not list. */
export function openApiV3Rendered(
  defs: readonly ResourceDefinition[],
  key: string,
): RenderedDocument | undefined {
  if (!openApiV3Keys(defs).includes(key)) return undefined;
  return memo(defs, `openapi3:doc:${key}`, () => {
    if (key === 'api' || key === 'apis' || key === 'version') return render(defs, [discoveryRoot(key)]);
    const parts = key.split('/');
    if (parts[0] === 'apis' && parts.length === 2) return render(defs, [discoveryRoot({ group: parts[1] })]);
    const [group, version] = parts[0] === 'api' ? ['', parts[1]] : [parts[1], parts[2]];
    const served = definitionsServing(defs, group, version).sort((a, b) =>
      a.resource < b.resource ? -1 : 1,
    );
    const paths = [groupVersionRoot(group, version), ...served.flatMap((d) => resourcePaths(d, version))];
    return render(defs, paths);
  });
}

/** The JSON body of /openapi/v3/<key>; undefined for keys the index does not list. */
export function openApiV3Document(defs: readonly ResourceDefinition[], key: string): string | undefined {
  return openApiV3Rendered(defs, key)?.json;
}

/** GET /openapi/v3 */
export function openApiV3Index(defs: readonly ResourceDefinition[]): OpenApiV3Index {
  return memo(defs, 'openapi3:index', () => ({
    paths: Object.fromEntries(
      openApiV3Keys(defs).map((key) => [
        key,
        { serverRelativeURL: `/openapi/v3/${key}?hash=${openApiV3Rendered(defs, key)!.hash}` },
      ]),
    ),
  }));
}

export interface OpenApiResponse {
  status: 200 | 301 | 304 | 404 | 406;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** True when an Accept header admits application/json (kube serves v3 as JSON or its own protobuf form). */
export function acceptsJson(accept: string | undefined): boolean {
  if (!accept || accept.trim() === '') return true;
  return accept.split(',').some((clause) => {
    const range = clause.split(';')[0].trim().toLowerCase();
    return range === 'application/json' || range === 'application/*' || range === '*/*' || range === '*';
  });
}

/**
 * GET /openapi/v3/<key>[?hash=...] the way kube answers it: a stale hash redirects (301) to the current URL, a
 * matching hash makes the answer immutable for a year, and If-None-Match with the current ETag gives 304.
 */
export function openApiV3Response(
  defs: readonly ResourceDefinition[],
  key: string,
  options: { hash?: string; accept?: string; ifNoneMatch?: string; now?: Date } = {},
): OpenApiResponse {
  const rendered = openApiV3Rendered(defs, key);
  if (!rendered) return { status: 404, headers: {}, body: '' };
  if (!acceptsJson(options.accept)) return { status: 406, headers: { Vary: 'Accept' }, body: '' };
  const headers: Record<string, string> = { Vary: 'Accept', 'Content-Type': 'application/json' };
  if (options.hash) {
    if (options.hash !== rendered.hash) {
      return { status: 301, headers: { Location: `/openapi/v3/${key}?hash=${rendered.hash}` }, body: '' };
    }
    const expires = new Date((options.now ?? new Date()).getTime());
    expires.setUTCFullYear(expires.getUTCFullYear() + 1);
    headers['Cache-Control'] = 'public, immutable';
    headers.Expires = expires.toUTCString();
  }
  headers.ETag = `"${rendered.hash}"`;
  if (options.ifNoneMatch === headers.ETag) return { status: 304, headers, body: '' };
  return { status: 200, headers, body: rendered.json };
}

/** What every operation of both documents ends with: its tag, kube's action and the kind it serves. */
export function withOperationExtensions(
  out: Json,
  op: { tag: string; action?: string; gvk?: { group: string; kind: string; version: string } },
): Json {
  out.tags = [op.tag];
  if (op.action) out['x-kubernetes-action'] = op.action;
  if (op.gvk)
    out['x-kubernetes-group-version-kind'] = {
      group: op.gvk.group,
      kind: op.gvk.kind,
      version: op.gvk.version,
    };
  return out;
}
