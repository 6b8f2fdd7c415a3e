/**
 * A manager that owns `spec.replicas` implicitly owns the struct field `spec` too: when it stops applying
 * everything below `spec`, `spec` itself may go. kube makes that explicit before pruning by turning every
 * named struct field that has owned paths below it into a member (map keys and list items are not).
 */
import { FieldSet } from './field-set.js';
import type { PathElement } from './path-element.js';
import { mapChild, schemaView, type SchemaRef } from './schema-view.js';

export function withNamedFieldsAsMembers(set: FieldSet, schema: SchemaRef): FieldSet {
  const view = schemaView(schema);
  const members: PathElement[] = set.members();
  const children: Array<[PathElement, FieldSet]> = [];
  for (const [pe, child] of set.children()) {
    let childSchema: SchemaRef;
    if (view !== 'deduced' && view.kind === 'map' && pe.kind === 'field') {
      const c = mapChild(view, pe.name);
      if (c?.declared && !set.hasMember(pe)) members.push(pe);
      childSchema = c?.schema;
    } else if (view !== 'deduced' && view.kind === 'list' && pe.kind === 'key') {
      childSchema = view.items;
    }
    children.push([pe, withNamedFieldsAsMembers(child, childSchema)]);
  }
  return FieldSet.build(members, children);
}
