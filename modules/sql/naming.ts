/**
 * The name of each kind's view in schema `k8s`. One rule, stable whatever else is served:
 *
 * - a built-in kind is named by its plural resource (`configmaps`, `leases`), unless another built-in kind
 *   stored here has the same resource: then core keeps the plain name and the others are `<resource>.<group>`;
 * - a CRD's kind is always `<resource>.<group>` (`widgets.example.com`), so a CRD coming or going never renames
 *   another view, and no CRD takes a name a later built-in kind would want;
 * - a name PostgreSQL would cut (over 63 bytes) keeps its first 54 bytes and ends `_` and 8 hex digits of its
 *   hash, so two long names stay apart.
 *
 * Kinds stored with another (events.k8s.io Events are core's) have no view of their own: one view per storage
 * key, named after the kind that owns the rows.
 */
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../registry/index.js';

/** PostgreSQL's NAMEDATALEN - 1 */
const MAX_IDENTIFIER_BYTES = 63;

/** Views of schema `k8s` that are not a kind's: a built-in resource by that name is qualified instead. */
export const reservedViewNames: ReadonlySet<string> = new Set(['changes', 'audit_events']);

/** Definitions of CRDs (served as they declare) are custom kinds; the rest are built in. */
function isCustom(def: ResourceDefinition): boolean {
  return def.declaredServing === true;
}

/** `<resource>.<group>`; core's group is spelled `core` here (only a reserved name needs it) */
function qualifiedName(def: ResourceDefinition): string {
  return `${def.resource}.${def.group || 'core'}`;
}

/** A name PostgreSQL keeps whole: long ones shortened with a hash of the whole. */
export function fitIdentifier(name: string): string {
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER_BYTES) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  let head = name;
  while (Buffer.byteLength(head) > MAX_IDENTIFIER_BYTES - 9) head = head.slice(0, -1);
  return `${head}_${hash}`;
}

/** Each stored kind's view name, by definition (one per storage key: pass the registry's `stored`). */
export function viewNames(stored: readonly ResourceDefinition[]): Map<ResourceDefinition, string> {
  const builtinsByResource = new Map<string, ResourceDefinition[]>();
  for (const def of stored) {
    if (isCustom(def)) continue;
    builtinsByResource.set(def.resource, [...(builtinsByResource.get(def.resource) ?? []), def]);
  }
  const names = new Map<ResourceDefinition, string>();
  for (const def of stored) {
    const sharing = builtinsByResource.get(def.resource) ?? [];
    const plain =
      !isCustom(def) && !reservedViewNames.has(def.resource) && (sharing.length === 1 || def.group === '');
    names.set(def, fitIdentifier(plain ? def.resource : qualifiedName(def)));
  }
  return names;
}
