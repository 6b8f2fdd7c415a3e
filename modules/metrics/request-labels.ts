/**
 * The labels kube puts on a request's metrics: its verb as kube reports it (HTTP method, or LIST / WATCH /
 * APPLY), the group/version/resource/subresource, the scope, and the dry-run value.
 */
import type { RequestInfo } from '../api/index.js';

export interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

/** Non-resource paths get their own subresource label; anything else counts as `other` (bounded labels). */
const NON_RESOURCE = /^\/(healthz|livez|readyz|metrics|version|api|apis|openapi\/v2|openapi\/v3)(?=\/|$)/;

function scopeOf(info: RequestInfo): string {
  if (info.name) return 'resource';
  if (info.namespace) return 'namespace';
  if (['list', 'watch', 'create', 'deletecollection'].includes(info.verb)) return 'cluster';
  return '';
}

function reportedVerb(info: RequestInfo, method: string, contentType: string | undefined): string {
  if (info.verb === 'watch') return 'WATCH';
  if (info.isResourceRequest && !info.subresource && info.verb === 'list') return 'LIST';
  if (method === 'PATCH' && contentType?.split(';')[0].trim() === 'application/apply-patch+yaml')
    return 'APPLY';
  return method;
}

/**
 * `served`: the request names a kind (and subresource) the server serves. Requests for anything else are
 * counted without group, version, resource and subresource: made-up names would otherwise add a series each.
 */
export function requestLabels(
  info: RequestInfo,
  method: string,
  contentType: string | undefined,
  dryRun: string | undefined,
  served = true,
): RequestLabels {
  const verb = reportedVerb(info, method === 'HEAD' ? 'GET' : method, contentType);
  if (!info.isResourceRequest) {
    const known = NON_RESOURCE.exec(info.path);
    return {
      verb,
      dry_run: '',
      group: '',
      version: '',
      resource: '',
      subresource: known ? known[0] : 'other',
      scope: '',
      component: 'apiserver',
    };
  }
  return {
    verb,
    dry_run: dryRun === 'All' ? 'All' : '',
    group: served ? info.group : '',
    version: served ? info.version : '',
    resource: served ? info.resource : '',
    subresource: served ? info.subresource : '',
    scope: scopeOf(info),
    component: 'apiserver',
  };
}
