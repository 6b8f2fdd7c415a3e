/** Parses a request path into kube's RequestInfo (verb, group, version, namespace, resource, ...). */

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** kube verb: get, list, watch, create, update, patch, delete, deletecollection; or the lowercase method */
  verb: string;
  apiPrefix: string;
  group: string;
  version: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** path segments after the group/version prefix, for routing discovery */
  parts: string[];
}

const namespaceSubresources = new Set(['status', 'finalize']);

const methodVerbs: Record<string, string> = {
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  GET: 'get',
  HEAD: 'get',
  DELETE: 'delete',
};

/** Query flags that turn a GET into a watch, as kube reads them. */
/**
 * A boolean query parameter as kube converts one (runtime.Convert_Slice_string_To_bool): true unless absent,
 * `0` or `false` in any case, so `watch=maybe` and `watch=` are watches.
 */
export function queryFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '0' && value.toLowerCase() !== 'false';
}

export const isWatchFlag = queryFlag;

/** A request that names no resource (a non-resource path, or none at all for the server's own writes). */
export function emptyRequestInfo(path = '', verb = ''): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb,
    apiPrefix: '',
    group: '',
    version: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}

export function parseRequestInfo(
  method: string,
  path: string,
  query: Record<string, string | undefined>,
): RequestInfo {
  const segments = path.split('/').filter((s) => s.length > 0);
  const info = emptyRequestInfo(path, method.toLowerCase());
  let rest: string[];
  if (segments[0] === 'api') {
    info.apiPrefix = 'api';
    if (segments.length < 2) return info;
    info.version = segments[1];
    rest = segments.slice(2);
  } else if (segments[0] === 'apis') {
    info.apiPrefix = 'apis';
    if (segments.length < 3) {
      info.group = segments[1] ?? '';
      return info;
    }
    info.group = segments[1];
    info.version = segments[2];
    rest = segments.slice(3);
  } else {
    return info;
  }
  if (rest.length === 0) return info;
  info.isResourceRequest = true;
  info.verb = methodVerbs[method] ?? method.toLowerCase();

  // `/namespaces/<ns>/<resource>/...` is namespaced; `/namespaces/<name>[/status|/finalize]` is the namespace itself.
  if (rest[0] === 'namespaces' && rest.length > 1) {
    info.namespace = rest[1];
    if (rest.length > 2 && !namespaceSubresources.has(rest[2])) rest = rest.slice(2);
  }
  info.parts = rest;
  info.resource = rest[0] ?? '';
  if (rest.length >= 2) info.name = rest[1];
  if (rest.length >= 3) info.subresource = rest.slice(2).join('/');

  if (!info.name) {
    if (info.verb === 'get') info.verb = isWatchFlag(query.watch) ? 'watch' : 'list';
    else if (info.verb === 'delete') info.verb = 'deletecollection';
  } else if (info.verb === 'get' && isWatchFlag(query.watch)) {
    info.verb = 'watch';
  }
  return info;
}
