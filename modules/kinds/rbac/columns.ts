/** kubectl's columns for RBAC objects: roles show when they were made, bindings their role and subjects. */
import { isPlainObject, type KubeObject } from '../../api/index.js';
import type { PrinterColumn } from '../../registry/index.js';
import { ageColumn, nameColumn } from '../columns.js';

const createdAt: PrinterColumn = {
  name: 'Created At',
  type: 'date',
  description: 'When the object was created, in UTC.',
  priority: 0,
  jsonPath: '.metadata.creationTimestamp',
  cell: (obj) => {
    const at = Date.parse(String(obj.metadata.creationTimestamp ?? ''));
    return Number.isNaN(at) ? '' : new Date(at).toISOString().replace(/\.\d+Z$/, 'Z');
  },
};

export const roleColumns: PrinterColumn[] = [nameColumn, createdAt];

function subjectsOf(obj: KubeObject, kind: string): string {
  const subjects = Array.isArray(obj.subjects) ? obj.subjects.filter(isPlainObject) : [];
  return subjects
    .filter((s) => s.kind === kind)
    .map((s) =>
      kind === 'ServiceAccount' ? `${String(s.namespace ?? '')}/${String(s.name)}` : String(s.name),
    )
    .join(', ');
}

const wide = (name: string, kind: string, description: string): PrinterColumn => ({
  name,
  type: 'string',
  description,
  priority: 1,
  jsonPath: '.subjects',
  cell: (obj) => subjectsOf(obj, kind),
});

export const bindingColumns: PrinterColumn[] = [
  nameColumn,
  {
    name: 'Role',
    type: 'string',
    description: 'The role granted, as Kind/name.',
    priority: 0,
    jsonPath: '.roleRef',
    cell: (obj) => {
      const ref = isPlainObject(obj.roleRef) ? obj.roleRef : {};
      return `${String(ref.kind ?? '')}/${String(ref.name ?? '')}`;
    },
  },
  ageColumn,
  wide('Users', 'User', 'Users the role is granted to.'),
  wide('Groups', 'Group', 'Groups the role is granted to.'),
  wide('ServiceAccounts', 'ServiceAccount', 'Service accounts the role is granted to, as namespace/name.'),
];
