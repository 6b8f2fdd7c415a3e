/**
 * The local APIServices this server should have: one per group/version it serves, as kube-apiserver's
 * autoregister (built-in group/versions) and crdregistration (CRD group/versions) controllers keep them.
 */
import type { ResourceDefinition } from '../registry/index.js';
import { APIREGISTRATION_GROUP, apiServiceName, type APIService } from '../kinds/index.js';
import { builtinPriority, crdPriority } from './priorities.js';

/** the label that marks APIServices kept by this server, and its values */
export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';
/** kube's "sync on start": built-in group/versions */
export const MANAGED_ON_START = 'onstart';
/** kube's "sync continuously": CRD group/versions */
export const MANAGED_CONTINUOUSLY = 'true';

export function automanagedAs(obj: APIService | undefined): string | undefined {
  const value = obj?.metadata.labels?.[AUTOMANAGED_LABEL];
  return value === MANAGED_ON_START || value === MANAGED_CONTINUOUSLY ? value : undefined;
}

/**
 * By name, the APIService each served group/version should have. A group/version served by a built-in kind
 * is built-in even when a CRD serves it too; a built-in one kube has no priorities for gets none.
 */
export function desiredApiServices(served: readonly ResourceDefinition[]): Map<string, APIService> {
  const builtinVersions = new Set<string>();
  const crdVersions = new Set<string>();
  for (const def of served) {
    for (const version of def.versions) {
      (def.declaredServing ? crdVersions : builtinVersions).add(`${def.group}/${version}`);
    }
  }
  const out = new Map<string, APIService>();
  for (const gv of [...builtinVersions, ...crdVersions]) {
    const slash = gv.lastIndexOf('/');
    const group = gv.slice(0, slash);
    const version = gv.slice(slash + 1);
    const name = apiServiceName(group, version);
    if (out.has(name)) continue;
    const isBuiltin = builtinVersions.has(gv);
    const priority = isBuiltin ? builtinPriority(group, version) : crdPriority;
    if (!priority) continue;
    out.set(name, {
      apiVersion: `${APIREGISTRATION_GROUP}/v1`,
      kind: 'APIService',
      metadata: {
        name,
        labels: { [AUTOMANAGED_LABEL]: isBuiltin ? MANAGED_ON_START : MANAGED_CONTINUOUSLY },
      },
      spec: { group, version, ...priority },
    });
  }
  return out;
}
