/**
 * What an applier stops applying is removed, unless someone else still owns it (structured-merge-diff's
 * prune). In three passes over the merged object: remove everything the applier owned last time; put back
 * whatever any manager (the applier's new configuration included) owns; and finally remove only what was the
 * applier's before, so unowned fields it never touched stay.
 *
 * Named struct fields count as owned when anything below them is, so a struct the applier emptied goes too.
 */
import type { Managed } from '../managed-fields/entries.js';
import { FieldSet } from '../managed-fields/field-set.js';
import { fromObject } from '../managed-fields/from-object.js';
import { withNamedFieldsAsMembers } from '../managed-fields/named-fields.js';
import type { SchemaRef } from '../managed-fields/schema-view.js';
import { removeItems } from './remove-items.js';

export function prune(
  merged: unknown,
  schema: SchemaRef,
  managed: Managed,
  lastSet: FieldSet | undefined,
): unknown {
  if (!lastSet || lastSet.isEmpty()) return merged;
  const named = (set: FieldSet): FieldSet => withNamedFieldsAsMembers(set, schema);
  const fieldsOf = (value: unknown): FieldSet => named(fromObject(value, schema));
  const last = named(lastSet);
  const mergedSet = fieldsOf(merged);

  const withoutLast = removeItems(merged, last, schema);
  let owned = FieldSet.empty();
  for (const m of managed.values()) owned = owned.union(m.fields);
  const unowned = mergedSet.difference(fieldsOf(withoutLast).union(named(owned)));
  const ownedKept = removeItems(merged, unowned, schema);

  const dangling = mergedSet.difference(fieldsOf(ownedKept)).intersection(last);
  return removeItems(merged, dangling, schema) ?? {};
}
