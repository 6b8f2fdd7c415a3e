/**
 * Ownership bookkeeping shared by updates and applies (structured-merge-diff's Updater): given what a write
 * changed, every other manager loses the fields that were removed, and the fields that were changed or added
 * are either conflicts (apply without force) or taken away from them.
 */
import type { Comparison } from './compare.js';
import { describeManager, type Managed } from './entries.js';
import { FieldSet } from './field-set.js';
import { makePath, type Path } from './path-element.js';
import { compareStrings } from './json-value.js';

export interface Conflict {
  /** identity of the manager that owns the field */
  readonly manager: string;
  readonly path: Path;
}

/** Thrown when an apply would change fields other managers own; one conflict per field and owner. */
export class FieldConflicts extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(conflicts.map((c) => `conflict with ${describeManager(c.manager)}`).join('; '));
  }
}

/**
 * Updates every manager but `writer` for a write that made the changes in `cmp`. Without `force`, a change to
 * a field someone else owns throws FieldConflicts (managers in identity order, paths in kube's order).
 */
export function settleOwnership(managed: Managed, cmp: Comparison, writer: string, force: boolean): Managed {
  const changed = cmp.modified.union(cmp.added);
  const conflicts: Conflict[] = [];
  const out: Managed = new Map();
  for (const [identity, m] of managed) {
    if (identity === writer) {
      out.set(identity, m);
      continue;
    }
    const lost = m.fields.intersection(changed);
    if (!force && !lost.isEmpty()) {
      for (const path of lost.paths()) conflicts.push({ manager: identity, path });
      continue;
    }
    const fields = m.fields.difference(lost).difference(cmp.removed);
    if (!fields.isEmpty()) out.set(identity, { ...m, fields });
  }
  if (conflicts.length > 0) {
    conflicts.sort((a, b) => compareStrings(a.manager, b.manager));
    throw new FieldConflicts(conflicts);
  }
  return out;
}

/**
 * Fields nobody owns: the type fields and the metadata the server sets (kube's list; note that
 * generateName, labels, annotations, finalizers, ownerReferences and deletion fields stay ownable).
 */
export const unownedFields: FieldSet = FieldSet.of(
  makePath('apiVersion'),
  makePath('kind'),
  makePath('metadata'),
  makePath('metadata', 'name'),
  makePath('metadata', 'namespace'),
  makePath('metadata', 'creationTimestamp'),
  makePath('metadata', 'selfLink'),
  makePath('metadata', 'uid'),
  makePath('metadata', 'clusterName'),
  makePath('metadata', 'generation'),
  makePath('metadata', 'managedFields'),
  makePath('metadata', 'resourceVersion'),
);

/** `fields` without the unowned ones (exact paths only, as kube strips them). */
export function stripUnowned(fields: FieldSet): FieldSet {
  return fields.difference(unownedFields);
}
