/** kube's RBAC validation messages: rules, aggregation rules, role references, subjects, roleRef changes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError, systemContext, type FieldError, type KubeObject } from '../../api/index.js';
import { clusterRoleBindingDefinition, roleBindingDefinition } from './bindings.js';
import { clusterRoleDefinition, roleDefinition } from './roles.js';

const ctx = systemContext();
const show = (errs: FieldError[] = []): string[] => errs.map(formatFieldError);
const RBAC = 'rbac.authorization.k8s.io';

describe('Role and ClusterRole validation', () => {
  const cases: { name: string; cluster?: boolean; obj: Partial<KubeObject>; want: string[] }[] = [
    {
      name: 'a resource rule',
      obj: { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] },
      want: [],
    },
    {
      name: 'a rule needs verbs',
      obj: { rules: [{ apiGroups: [''], resources: ['pods'] }] },
      want: ['rules[0].verbs: Required value: verbs must contain at least one value'],
    },
    {
      name: 'a resource rule needs groups and resources',
      obj: { rules: [{ verbs: ['get'] }] },
      want: [
        'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
        'rules[0].resources: Required value: resource rules must supply at least one resource',
      ],
    },
    {
      name: 'non-resource URLs are not for Roles',
      obj: { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] },
      want: [
        'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
      ],
    },
    {
      name: 'non-resource URLs in a ClusterRole',
      cluster: true,
      obj: { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] },
      want: [],
    },
    {
      name: 'not with resources',
      cluster: true,
      obj: { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }] },
      want: [
        'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs',
      ],
    },
    {
      name: 'an aggregationRule needs selectors',
      cluster: true,
      obj: { aggregationRule: {} },
      want: [
        'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
      ],
    },
    {
      name: 'a selector with a bad operator',
      cluster: true,
      obj: {
        aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }] },
      },
      want: [
        'aggregationRule.clusterRoleSelectors[0]: Invalid value: {"matchExpressions":[{"key":"a","operator":"Near"}]}: "Near" is not a valid label selector operator',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const def = c.cluster ? clusterRoleDefinition : roleDefinition;
      const obj = {
        metadata: { name: 'r', ...(c.cluster ? {} : { namespace: 'n' }) },
        ...c.obj,
      } as KubeObject;
      assert.deepEqual(show(def.strategy.validate?.(obj, ctx)), c.want);
    });
  }
});

describe('RoleBinding and ClusterRoleBinding validation', () => {
  const ref = { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' };
  const user = { kind: 'User', apiGroup: RBAC, name: 'alice' };
  const cases: { name: string; cluster?: boolean; obj: Partial<KubeObject>; want: string[] }[] = [
    { name: 'a user bound', obj: { roleRef: ref, subjects: [user] }, want: [] },
    {
      name: 'roleRef group and kind',
      obj: { roleRef: { apiGroup: 'x', kind: 'Thing', name: 'a/b' } },
      want: [
        'roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
        'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"',
        'roleRef.name: Invalid value: "a/b": may not contain \'/\'',
      ],
    },
    {
      name: 'a ClusterRoleBinding binds ClusterRoles only',
      cluster: true,
      obj: { roleRef: { ...ref, kind: 'Role' } },
      want: ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
    },
    {
      name: 'roleRef name required',
      obj: { roleRef: { ...ref, name: '' } },
      want: ['roleRef.name: Required value'],
    },
    {
      name: 'subject kinds and groups',
      obj: {
        roleRef: ref,
        subjects: [
          { kind: 'Robot', name: 'r' },
          { kind: 'User', name: 'u' },
          { kind: 'ServiceAccount', apiGroup: RBAC, name: 'Bad_Name' },
        ],
      },
      want: [
        'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
        'subjects[1].apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"',
        "subjects[2].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'subjects[2].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
      ],
    },
    {
      name: 'a service account in a ClusterRoleBinding needs its namespace',
      cluster: true,
      obj: { roleRef: ref, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] },
      want: ['subjects[0].namespace: Required value'],
    },
    {
      name: 'subject name required',
      obj: { roleRef: ref, subjects: [{ ...user, name: '' }] },
      want: ['subjects[0].name: Required value'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const def = c.cluster ? clusterRoleBindingDefinition : roleBindingDefinition;
      const obj = {
        metadata: { name: 'b', ...(c.cluster ? {} : { namespace: 'n' }) },
        ...c.obj,
      } as KubeObject;
      assert.deepEqual(show(def.strategy.validate?.(obj, ctx)), c.want);
    });
  }

  it('roleRef cannot change', () => {
    const old = { metadata: { name: 'b', namespace: 'n' }, roleRef: ref } as KubeObject;
    const next = { ...old, roleRef: { ...ref, name: 'edit' } };
    assert.deepEqual(show(roleBindingDefinition.strategy.validateUpdate?.(next, old, ctx)), [
      'roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"}: cannot change roleRef',
    ]);
    assert.deepEqual(
      show(roleBindingDefinition.strategy.validateUpdate?.({ ...old, subjects: [] }, old, ctx)),
      [],
    );
  });
});
