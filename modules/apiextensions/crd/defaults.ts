/**
 * kube's defaulting of a v1 CustomResourceDefinition (SetDefaults_*), and what its registry strategy does
 * on create and update: the server's own status fields and generation. Pure; mutates the object given.
 */
import type { CustomResourceDefinition } from './types.js';

/** The defaults every decoded CRD gets, on create and update alike. */
export function defaultCRD(crd: CustomResourceDefinition): void {
  const spec = (crd.spec ??= {});
  const names = spec.names;
  if (names) {
    if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service && service.port === undefined) service.port = 443;
  // kube also fills storedVersions from the storage version when it is empty (the strategy does it below)
  if (crd.status && !crd.status.storedVersions?.length) addStorageVersion(crd);
}

/** The storage version joins status.storedVersions the first time it is the storage version. */
function addStorageVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec.versions?.find((v) => v.storage)?.name;
  if (storage === undefined) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(storage)) stored.push(storage);
}

/** Create: status is the server's (cleared, then storedVersions), generation starts at 1. */
export function prepareCRDForCreate(crd: CustomResourceDefinition): void {
  crd.status = {};
  crd.metadata.generation = 1;
  addStorageVersion(crd);
}

/** Update of the main resource: status is kept from the stored object; a spec change bumps generation. */
export function prepareCRDForUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): void {
  crd.status = structuredClone(old.status ?? {});
  const oldGeneration = typeof old.metadata.generation === 'number' ? old.metadata.generation : 0;
  crd.metadata.generation = semanticEqual(crd.spec, old.spec) ? oldGeneration : oldGeneration + 1;
  addStorageVersion(crd);
}

/**
 * Go's apimachinery Semantic.DeepEqual on decoded JSON: an absent field equals its empty value (an empty
 * list or map), since Go cannot tell them apart after decoding.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function isEmpty(v: unknown): boolean {
  if (v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return false;
}
