/** rbac.authorization.k8s.io/v1 Role (one namespace) and ClusterRole (cluster-wide, may aggregate others). */
import type { ResourceDefinition } from '../../registry/index.js';
import { field, kindSchema } from '../../api/index.js';
import { validateStandardFinalizers } from '../../validation/index.js';
import { roleColumns } from './columns.js';
import { aggregationRuleSchema, rulesField } from './schemas.js';
import { validateAggregationRule, validateRules } from './validation.js';

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

const roleSchema = kindSchema({
  description: 'A set of permissions (rules) within one namespace, granted to subjects by a RoleBinding.',
  properties: { rules: rulesField },
});

export const roleDefinition: ResourceDefinition = {
  group: RBAC,
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'roles',
  singular: 'role',
  kind: 'Role',
  listKind: 'RoleList',
  scope: 'Namespaced',
  verbs,
  nameRule: 'pathSegment',
  allowCreateOnUpdate: true,
  schema: roleSchema,
  description: roleSchema.description ?? '',
  printerColumns: roleColumns,
  strategy: {
    validate: (obj) => [
      ...validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers'),
      ...validateRules(obj.rules, true),
    ],
  },
};

const clusterRoleSchema = kindSchema({
  description:
    'A set of permissions (rules) across the cluster, granted by a ClusterRoleBinding, or by a RoleBinding ' +
    'within its namespace; with an aggregationRule its rules are those of the ClusterRoles it selects.',
  properties: { rules: rulesField, aggregationRule: field(3, aggregationRuleSchema) },
});

export const clusterRoleDefinition: ResourceDefinition = {
  group: RBAC,
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'clusterroles',
  singular: 'clusterrole',
  kind: 'ClusterRole',
  listKind: 'ClusterRoleList',
  scope: 'Cluster',
  verbs,
  nameRule: 'pathSegment',
  allowCreateOnUpdate: true,
  schema: clusterRoleSchema,
  description: clusterRoleSchema.description ?? '',
  printerColumns: roleColumns,
  strategy: {
    validate: (obj) => [
      ...validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers'),
      ...validateRules(obj.rules, false),
      ...validateAggregationRule(obj.aggregationRule),
    ],
  },
};
