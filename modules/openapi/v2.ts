/**
 * The Swagger 2.0 document at /openapi/v2: every group-version in one document, definitions named as in v3.
 * Served as JSON and as gnostic Protobuf (v2-protobuf.ts), the form client-go asks for.
 */
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../registry/index.js';
import { memo } from '../discovery/index.js';
import { definitionsServing } from '../discovery/index.js';
import { groupVersions, orderedGroups } from '../discovery/index.js';
import type { ParamSpec } from './params.js';
import type { OperationSpec, PathSpec, Payload } from './operations.js';
import { discoveryRoot, groupVersionRoot } from './root-routes.js';
import { resourcePaths } from './routes.js';
import { SchemaBuilder, type Json } from './schema.js';
import { openApiV2Protobuf } from './v2-protobuf.js';
import { allGroupVersions, componentSources } from './sources.js';
import {
  acceptsJson,
  bearerToken,
  openApiInfo,
  sortedKeys,
  withOperationExtensions,
  type OpenApiResponse,
  type RenderedDocument,
} from './v3.js';

function param(p: ParamSpec): Json {
  return {
    description: p.description,
    in: p.in,
    name: p.name,
    ...(p.required ? { required: true } : {}),
    type: p.type,
    uniqueItems: true,
  };
}

function payloadSchema(b: SchemaBuilder, payload: Payload): Json {
  return 'component' in payload ? b.ref(payload.component) : { type: 'string' };
}

function operation(b: SchemaBuilder, op: OperationSpec): Json {
  const params = op.params.map(param);
  if (op.body) {
    params.push({
      in: 'body',
      name: 'body',
      ...(op.body.required ? { required: true } : {}),
      schema: payloadSchema(b, op.body.payload),
    });
  }
  const out: Json = {
    consumes: op.body ? op.body.contentTypes : ['*/*'],
    description: op.description,
    operationId: op.operationId,
  };
  if (params.length) out.parameters = params;
  out.produces = op.produces;
  out.responses = Object.fromEntries(
    op.responses.map((r) => [
      r.code,
      r.payload
        ? { description: r.description, schema: payloadSchema(b, r.payload) }
        : { description: r.description },
    ]),
  );
  out.schemes = ['https'];
  return withOperationExtensions(out, op);
}

function allPaths(defs: readonly ResourceDefinition[]): PathSpec[] {
  const paths: PathSpec[] = [discoveryRoot('api'), discoveryRoot('apis'), discoveryRoot('version')];
  const add = (group: string, version: string): void => {
    paths.push(groupVersionRoot(group, version));
    const served = definitionsServing(defs, group, version).sort((a, b) =>
      a.resource < b.resource ? -1 : 1,
    );
    for (const def of served) paths.push(...resourcePaths(def, version));
  };
  for (const v of groupVersions(defs, '')) add('', v);
  for (const g of orderedGroups(defs, 'group')) {
    paths.push(discoveryRoot({ group: g.group }));
    for (const v of g.versions) add(g.group, v);
  }
  return paths;
}

/** GET /openapi/v2 as JSON. */
export function openApiV2Document(defs: readonly ResourceDefinition[]): RenderedDocument {
  return memo(defs, 'openapi2:doc', () => {
    const b = new SchemaBuilder('v2', componentSources(defs), allGroupVersions(defs));
    const paths = sortedKeys(
      allPaths(defs).map((p): [string, Json] => {
        const item: [string, unknown][] = p.ops.map((op) => [op.method, operation(b, op)]);
        if (p.params.length) item.push(['parameters', p.params.map(param)]);
        return [p.path, sortedKeys(item)];
      }),
    );
    const doc: Json = {
      definitions: b.result(),
      info: openApiInfo,
      paths,
      security: [{ BearerToken: [] }],
      securityDefinitions: { BearerToken: bearerToken },
      swagger: '2.0',
    };
    const json = JSON.stringify(doc);
    return { doc, json, hash: createHash('sha512').update(json).digest('hex').toUpperCase() };
  });
}

/** The JSON body of /openapi/v2. */
export function openApiV2(defs: readonly ResourceDefinition[]): string {
  return openApiV2Document(defs).json;
}

/** what client-go asks for, and the older spelling; answers carry the second (Go's mime parser refuses '@') */
const protobufTypes = [
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
];

/** The form an Accept header picks, in its order: JSON (also for wildcards), gnostic Protobuf, or none. */
function acceptedForm(accept: string | undefined): 'json' | 'protobuf' | undefined {
  if (!accept || accept.trim() === '') return 'json';
  for (const clause of accept.split(',')) {
    const range = clause.split(';')[0].trim().toLowerCase();
    if (protobufTypes.includes(range)) return 'protobuf';
    if (acceptsJson(range)) return 'json';
  }
  return undefined;
}

/** The Protobuf body of /openapi/v2 and its ETag, made once per set of definitions. */
function openApiV2ProtobufDocument(defs: readonly ResourceDefinition[]): { body: Buffer; hash: string } {
  return memo(defs, 'openapi2:protobuf', () => {
    const body = Buffer.from(openApiV2Protobuf(openApiV2Document(defs).doc));
    return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
  });
}

/**
 * GET /openapi/v2 as kube answers it: JSON, or gnostic Protobuf (what client-go's OpenAPISchema() asks for),
 * each with an ETag of its own bytes; 406 for anything else.
 */
export function openApiV2Response(
  defs: readonly ResourceDefinition[],
  options: { accept?: string; ifNoneMatch?: string } = {},
): OpenApiResponse {
  return openApiV2Answer(
    () => openApiV2Document(defs),
    () => openApiV2ProtobufDocument(defs),
    options,
  );
}

/** The answer for a v2 document given its two forms (each made only when asked for). */
export function openApiV2Answer(
  json: () => RenderedDocument,
  protobuf: () => { body: Buffer; hash: string },
  options: { accept?: string; ifNoneMatch?: string },
): OpenApiResponse {
  const form = acceptedForm(options.accept);
  if (!form) return { status: 406, headers: { Vary: 'Accept' }, body: '' };
  const rendered = form === 'json' ? json() : undefined;
  const pb = form === 'protobuf' ? protobuf() : undefined;
  const headers: Record<string, string> = {
    Vary: 'Accept',
    'Content-Type': form === 'json' ? 'application/json' : protobufTypes[1],
    ETag: `"${rendered?.hash ?? pb!.hash}"`,
  };
  if (options.ifNoneMatch === headers.ETag) return { status: 304, headers, body: '' };
  return { status: 200, headers, body: rendered?.json ?? pb!.body };
}
