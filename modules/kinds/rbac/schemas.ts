/** The parts the four rbac.authorization.k8s.io/v1 kinds share: rules, subjects, the role reference. */
import { field, labelSelectorSchema, str, type Schema } from '../../api/index.js';

const rbacV1 = 'io.k8s.api.rbac.v1';

const strings = (n: number, description: string): Schema =>
  field(n, { type: 'array', description, items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' });

export const policyRuleSchema: Schema = {
  type: 'object',
  description: 'What a role allows: verbs on resources of API groups (optionally by name), or on URL paths.',
  required: ['verbs'],
  properties: {
    apiGroups: strings(2, 'API groups of the resources; "" is the core group, "*" every group.'),
    nonResourceURLs: strings(
      5,
      'URL paths that are not resources (e.g. /healthz); a trailing * matches any suffix. ClusterRoles only.',
    ),
    resourceNames: strings(4, 'Names of the objects the rule is limited to; empty means all.'),
    resources: strings(3, 'Resources, "resource/subresource" for a subresource; "*" every resource.'),
    verbs: strings(1, 'Verbs allowed; "*" every verb.'),
  },
  'x-pgkube-ref': `${rbacV1}.PolicyRule`,
};

export const rulesField: Schema = field(2, {
  type: 'array',
  description: 'The permissions the role grants.',
  items: policyRuleSchema,
  'x-kubernetes-list-type': 'atomic',
});

export const subjectSchema: Schema = {
  type: 'object',
  description: 'Who a binding grants its role to: a User, a Group or a ServiceAccount.',
  required: ['kind', 'name'],
  properties: {
    apiGroup: str(2, '"rbac.authorization.k8s.io" for User and Group, "" for ServiceAccount.'),
    kind: str(1, 'User, Group or ServiceAccount.'),
    name: str(3, 'Name of the subject.'),
    namespace: str(4, "The ServiceAccount's namespace; required for ServiceAccounts in ClusterRoleBindings."),
  },
  'x-kubernetes-map-type': 'atomic',
  'x-pgkube-ref': `${rbacV1}.Subject`,
};

export const roleRefSchema: Schema = {
  type: 'object',
  description: 'The role a binding grants; it cannot change once the binding exists.',
  required: ['apiGroup', 'kind', 'name'],
  properties: {
    apiGroup: str(1, 'Always "rbac.authorization.k8s.io".'),
    kind: str(2, 'Role or ClusterRole.'),
    name: str(3, 'Name of the role.'),
  },
  'x-kubernetes-map-type': 'atomic',
  'x-pgkube-ref': `${rbacV1}.RoleRef`,
};

export const bindingProperties: Record<string, Schema> = {
  roleRef: field(3, roleRefSchema),
  subjects: field(2, {
    type: 'array',
    description: 'Who the role is granted to.',
    items: subjectSchema,
    'x-kubernetes-list-type': 'atomic',
  }),
};

export const aggregationRuleSchema: Schema = {
  type: 'object',
  description: 'Where an aggregated ClusterRole takes its rules from.',
  properties: {
    clusterRoleSelectors: field(1, {
      type: 'array',
      description: "ClusterRoles whose labels match any of these selectors give their rules to this role's.",
      items: labelSelectorSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
  },
  'x-pgkube-ref': `${rbacV1}.AggregationRule`,
};
