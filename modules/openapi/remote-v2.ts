/**
 * /openapi/v2 on an aggregation host: our document with every remote APIService's /openapi/v2 merged in
 * (swagger-merge.ts), in APIService priority order, JSON and Protobuf, each with the ETag of its own bytes. A
 * backend that stops answering keeps its last good document in the merge.
 */
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../registry/index.js';
import {
  memo,
  pairKey,
  RemoteCache,
  type RemoteApis,
  type RemoteCacheOptions,
  type RemoteFetched,
  type RemoteGroupVersion,
  type RemoteSnapshot,
} from '../discovery/index.js';
import type { Json } from './schema.js';
import { mergeSwagger, type SwaggerParts } from './swagger-merge.js';
import { openApiV2Answer, openApiV2Document, openApiV2Response } from './v2.js';
import { openApiV2Protobuf } from './v2-protobuf.js';
import { sortedKeys, type OpenApiResponse, type RenderedDocument } from './v3.js';

export type RemoteOpenApiV2 = RemoteCache<Json>;
export type RemoteOpenApiV2Snapshot = RemoteSnapshot<Json>;

const sha512 = (data: string | Uint8Array): string =>
  createHash('sha512').update(data).digest('hex').toUpperCase();

/**
 * Documents read from answers, by the answer's bytes: a server behind several group-versions (a sidecar's
 * upstream, which shares one GET between them) has its document parsed and kept once, not once per entry.
 */
const parsed = new WeakMap<Buffer, RemoteFetched<Json>>();

/** A backend's /openapi/v2 as JSON; rejects on any answer but a JSON object. */
export async function fetchOpenApiV2(
  remote: RemoteApis,
  service: RemoteGroupVersion,
): Promise<RemoteFetched<Json>> {
  const r = await remote.get(service.apiService, '/openapi/v2', 'application/json');
  if (r.status !== 200) throw new Error(`/openapi/v2 answered ${r.status}`);
  let fetched = parsed.get(r.body);
  if (!fetched) {
    fetched = parseOpenApiV2(r.body);
    parsed.set(r.body, fetched);
  }
  return fetched;
}

function parseOpenApiV2(body: Buffer): RemoteFetched<Json> {
  const text = body.toString('utf8');
  const doc: unknown = JSON.parse(text);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new Error('/openapi/v2 is no JSON object');
  return { value: doc as Json, fingerprint: sha512(text) };
}

/** Every remote APIService's /openapi/v2, kept fresh (kube's download timeout: 60 s). */
export function remoteOpenApiV2(remote: RemoteApis, options: RemoteCacheOptions = {}): RemoteOpenApiV2 {
  return new RemoteCache(remote, fetchOpenApiV2, { timeoutMs: 60_000, ...options });
}

/** kube-aggregator's merge order: group priority, then version priority (highest first), then name. */
function byPriority(a: RemoteGroupVersion, b: RemoteGroupVersion): number {
  if (a.groupPriorityMinimum !== b.groupPriorityMinimum)
    return b.groupPriorityMinimum - a.groupPriorityMinimum;
  if (a.versionPriority !== b.versionPriority) return b.versionPriority - a.versionPriority;
  return a.apiService < b.apiService ? -1 : a.apiService > b.apiService ? 1 : 0;
}

const sortObject = (o: Json): Json => sortedKeys(Object.entries(o));

/** The merged document; ours alone while no backend's document arrived. */
export function mergedOpenApiV2Document(
  defs: readonly ResourceDefinition[],
  remote: RemoteOpenApiV2Snapshot,
): RenderedDocument {
  const specs = remote.entries
    .filter((e) => e.value !== undefined)
    .sort((a, b) => byPriority(a.service, b.service));
  if (specs.length === 0) return openApiV2Document(defs);
  return memo(pairKey(defs, remote), 'merged:openapi2:doc', () => {
    const local = openApiV2Document(defs).doc;
    let parts: SwaggerParts = {
      paths: local.paths as Json,
      definitions: local.definitions as Json,
      parameters: (local.parameters as Json | undefined) ?? {},
    };
    for (const spec of specs) parts = mergeSwagger(parts, spec.value!);
    const doc: Json = {
      ...local,
      definitions: sortObject(parts.definitions),
      paths: sortObject(parts.paths),
    };
    if (Object.keys(parts.parameters).length) doc.parameters = sortObject(parts.parameters);
    const ordered = sortObject(doc);
    const json = JSON.stringify(ordered);
    return { doc: ordered, json, hash: sha512(json) };
  });
}

/** GET /openapi/v2 on an aggregation host (JSON or gnostic Protobuf, 304 on a matching If-None-Match). */
export function mergedOpenApiV2Response(
  defs: readonly ResourceDefinition[],
  remote: RemoteOpenApiV2Snapshot,
  options: { accept?: string; ifNoneMatch?: string } = {},
): OpenApiResponse {
  if (!remote.entries.some((e) => e.value !== undefined)) return openApiV2Response(defs, options);
  const document = () => mergedOpenApiV2Document(defs, remote);
  return openApiV2Answer(
    document,
    () =>
      memo(document(), 'merged:openapi2:protobuf', () => {
        const body = Buffer.from(openApiV2Protobuf(document().doc));
        return { body, hash: sha512(body) };
      }),
    options,
  );
}
