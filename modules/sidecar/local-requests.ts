/**
 * Which requests a sidecar serves itself: its own API groups (the CRD API and its CRDs' groups, everything the
 * Registry serves), with their discovery and OpenAPI documents; the merged /apis, /openapi/v2 and /openapi/v3
 * index; its health and metrics. Everything else is the upstream's: the core group (/api), other groups, their
 * OpenAPI v3 documents, /version, the issuer's discovery, unknown paths. Pure: a function of the request and the
 * set of local groups.
 */
import type { RequestInfo } from '../api/index.js';

/** documents this server builds from its own groups and the upstream's */
const MERGED = new Set(['/apis', '/openapi/v2', '/openapi/v3']);
const OWN = /^\/(?:healthz|livez|readyz)(?:\/|$)|^\/metrics$/;
const GROUP_PATH = /^\/(?:openapi\/v3\/)?apis\/([^/]+)(?:\/|$)/;
const CORE_PATH = /^\/(?:openapi\/v3\/)?api(?:\/|$)/;

export function servedLocally(info: RequestInfo, localGroups: ReadonlySet<string>): boolean {
  if (info.isResourceRequest) return localGroups.has(info.group);
  const path = info.path.replace(/\/+$/, '') || '/';
  if (MERGED.has(path) || OWN.test(path)) return true;
  const group = GROUP_PATH.exec(path);
  if (group) return localGroups.has(group[1]);
  if (CORE_PATH.test(path)) return localGroups.has('');
  return false;
}

/**
 * How a request for the upstream goes: a bearer token (or no credential at all) reaches the upstream as the
 * caller sent it; a client certificate ends at this server's TLS, so its user is authenticated here and
 * impersonated upstream. A request with both goes with its token (the upstream cannot see the certificate).
 */
export function forwardedAs(hasAuthorization: boolean, hasClientCertificate: boolean): 'caller' | 'user' {
  return !hasAuthorization && hasClientCertificate ? 'user' : 'caller';
}
