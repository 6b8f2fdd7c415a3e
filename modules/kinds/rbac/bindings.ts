/** rbac.authorization.k8s.io/v1 RoleBinding and ClusterRoleBinding: a role granted to subjects. */
import type { ResourceDefinition } from '../../registry/index.js';
import { kindSchema } from '../../api/index.js';
import { validateStandardFinalizers } from '../../validation/index.js';
import { bindingColumns } from './columns.js';
import { bindingProperties } from './schemas.js';
import { validateRoleRef, validateRoleRefUnchanged, validateSubjects } from './validation.js';

const RBAC = 'rbac.authorization.k8s.io';
const verbs: ResourceDefinition['verbs'] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

const roleBindingSchema = kindSchema({
  description:
    'Grants a Role, or a ClusterRole limited to this namespace, to users, groups and service accounts.',
  properties: bindingProperties,
  required: ['roleRef'],
});

export const roleBindingDefinition: ResourceDefinition = {
  group: RBAC,
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'rolebindings',
  singular: 'rolebinding',
  kind: 'RoleBinding',
  listKind: 'RoleBindingList',
  scope: 'Namespaced',
  verbs,
  nameRule: 'pathSegment',
  allowCreateOnUpdate: true,
  schema: roleBindingSchema,
  description: roleBindingSchema.description ?? '',
  printerColumns: bindingColumns,
  strategy: {
    validate: (obj) => [
      ...validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers'),
      ...validateRoleRef(obj.roleRef, false),
      ...validateSubjects(obj.subjects, true),
    ],
    validateUpdate: validateRoleRefUnchanged,
  },
};

const clusterRoleBindingSchema = kindSchema({
  description: 'Grants a ClusterRole across the cluster to users, groups and service accounts.',
  properties: bindingProperties,
  required: ['roleRef'],
});

export const clusterRoleBindingDefinition: ResourceDefinition = {
  group: RBAC,
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  kind: 'ClusterRoleBinding',
  listKind: 'ClusterRoleBindingList',
  scope: 'Cluster',
  verbs,
  nameRule: 'pathSegment',
  allowCreateOnUpdate: true,
  schema: clusterRoleBindingSchema,
  description: clusterRoleBindingSchema.description ?? '',
  printerColumns: bindingColumns,
  strategy: {
    validate: (obj) => [
      ...validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers'),
      ...validateRoleRef(obj.roleRef, true),
      ...validateSubjects(obj.subjects, false),
    ],
    validateUpdate: validateRoleRefUnchanged,
  },
};
