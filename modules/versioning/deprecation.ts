/**
 * Deprecated API versions (spec part2 deprecation rule 10): a request to a version whose definition marks it
 * deprecated (by now) gets kube's Warning text, and is remembered for apiserver_requested_deprecated_apis.
 */
import { subresourceKind } from '../discovery/index.js';
import { groupVersion, type ResourceDefinition } from '../registry/index.js';
import { reached, servedRelease, type Release } from './release.js';

export interface Deprecation {
  /** text of the `Warning: 299 - "..."` header, kube's wording */
  warning: string;
  /** "1.y" when the version has a removal release, else "" (the metric's removed_release label) */
  removedRelease: string;
}

/**
 * The deprecation of `def` served at `version`, or undefined. A subresource shares it when it reads and writes
 * the kind itself (status), not when it has a kind of its own (scale is autoscaling/v1 Scale).
 */
export function deprecationOf(
  def: ResourceDefinition,
  version: string,
  subresource = '',
  release: Release = servedRelease,
): Deprecation | undefined {
  const lifecycle = def.lifecycle?.[version];
  if (lifecycle?.warning !== undefined) return { warning: lifecycle.warning, removedRelease: '' };
  if (!lifecycle?.deprecated || !reached(lifecycle.deprecated, release)) return undefined;
  if (subresource) {
    const gvk = subresourceKind(def, version, subresource);
    if (gvk.group !== def.group || gvk.version !== version || gvk.kind !== def.kind) return undefined;
  }
  let warning = `${groupVersion(def.group, version)} ${def.kind} is deprecated in v${lifecycle.deprecated}+`;
  if (lifecycle.removed) warning += `, unavailable in v${lifecycle.removed}+`;
  const r = lifecycle.replacement;
  if (r) warning += `; use ${groupVersion(r.group, r.version)} ${r.kind}`;
  return { warning, removedRelease: lifecycle.removed ?? '' };
}

/** One deprecated API that was requested; property names are the metric's label names. */
export interface DeprecatedApiRequest {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  removed_release: string;
}

/**
 * Which deprecated APIs this process has served, each once (kube's gauge is set to 1 per label set and never
 * reset). The metrics endpoint reads it when scraped.
 */
export class DeprecatedApis {
  private readonly seen = new Map<string, DeprecatedApiRequest>();

  record(request: DeprecatedApiRequest): void {
    const key = [request.group, request.version, request.resource, request.subresource].join('/');
    if (!this.seen.has(key)) this.seen.set(key, Object.freeze({ ...request }));
  }

  /** Every deprecated API requested so far, in the order first seen. */
  requested(): DeprecatedApiRequest[] {
    return [...this.seen.values()];
  }
}
