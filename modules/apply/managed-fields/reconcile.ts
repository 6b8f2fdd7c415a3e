/**
 * Field sets written before a schema changed a list, map or struct between atomic and granular. Going to
 * atomic, whoever owned anything inside now owns the whole structure (only its top); going to granular needs
 * nothing, the earlier owner keeps owning just the top and conflicts with no one over the inside.
 */
import { FieldSet } from './field-set.js';
import type { PathElement } from './path-element.js';
import { mapChild, schemaView, type SchemaRef } from './schema-view.js';

/** The reconciled set, or undefined when `set` already matches the schema. */
export function reconcileWithSchema(set: FieldSet, schema: SchemaRef): FieldSet | undefined {
  const collapse: PathElement[][] = [];
  walk(set, schema, [], false, collapse);
  if (collapse.length === 0) return undefined;
  const tops = FieldSet.of(...collapse);
  return set.recursiveDifference(tops).union(tops);
}

/** `set`: what is owned below `path` (undefined when only `path` itself is); `whole`: `path` is a member only. */
function walk(
  set: FieldSet | undefined,
  schema: SchemaRef,
  path: PathElement[],
  whole: boolean,
  collapse: PathElement[][],
): void {
  const view = schemaView(schema);
  if (view === 'deduced' || view.kind === 'scalar') return;
  if (view.atomic) {
    if (!whole && path.length > 0 && (view.kind === 'list' || !set || !set.isEmpty())) collapse.push(path);
    return;
  }
  if (!set) return;
  const visit = (pe: PathElement, member: boolean): void => {
    let childSchema: SchemaRef;
    if (view.kind === 'list') {
      childSchema = view.items;
    } else {
      const c = pe.kind === 'field' ? mapChild(view, pe.name) : undefined;
      // paths the schema does not know are left alone
      if (!c) return;
      childSchema = c.schema;
    }
    const below = set.withPrefix(pe);
    const hasChildren = !below.isEmpty();
    walk(hasChildren ? below : undefined, childSchema, [...path, pe], member && !hasChildren, collapse);
  };
  for (const [pe] of set.children()) if (!set.hasMember(pe)) visit(pe, false);
  for (const pe of set.members()) visit(pe, true);
}
