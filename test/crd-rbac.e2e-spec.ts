/**
 * RBAC and custom resources, with kubectl: kube's aggregated `edit` role does not cover a new group until a
 * ClusterRole labelled to aggregate into it names the group's resources; `kubectl auth can-i` knows the new
 * resource by its plural and short name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from './support/eventually.js';
import { kubectl } from './support/kubectl.js';
import { useServer } from './support/use-server.js';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'lamps.rbac.pgkube.io' },
  spec: {
    group: 'rbac.pgkube.io',
    scope: 'Namespaced',
    names: { plural: 'lamps', singular: 'lamp', kind: 'Lamp', shortNames: ['lp'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

describe('RBAC on custom resources', () => {
  const s = useServer();
  const run = (args: string[]) => kubectl(args, { kubeconfig: s.kubeconfig, timeoutMs: 60_000 });
  const canI = async (args: string[]) => (await run(['auth', 'can-i', ...args])).stdout.trim();

  it('edit does not cover a new group until a role aggregates into it', async () => {
    const made = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: crd,
    });
    assert.equal(made.status, 201, made.text);
    await eventually(
      async () => (await s.request('GET', '/apis/rbac.pgkube.io/v1/lamps')).status === 200,
      'served',
    );
    const bound = await run([
      'create',
      'rolebinding',
      'bob-edit',
      '-n',
      'default',
      '--clusterrole=edit',
      '--user=bob',
    ]);
    assert.equal(bound.code, 0, bound.stderr);
    await eventually(
      async () => (await canI(['create', 'configmaps', '-n', 'default', '--as=bob'])) === 'yes',
      'edit bound',
    );
    assert.equal(await canI(['create', 'lamps', '-n', 'default', '--as=bob']), 'no');
    const refused = await run(['--as=bob', 'get', 'lamps', '-n', 'default']);
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /lamps\.rbac\.pgkube\.io is forbidden: User "bob" cannot list resource "lamps" in API group "rbac\.pgkube\.io" in the namespace "default"/,
    );
    const role = await s.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      body: {
        metadata: {
          name: 'lamps-edit',
          labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
        },
        rules: [
          { apiGroups: ['rbac.pgkube.io'], resources: ['lamps'], verbs: ['get', 'list', 'create', 'delete'] },
        ],
      },
    });
    assert.equal(role.status, 201, role.text);
    await eventually(
      async () => (await canI(['create', 'lp', '-n', 'default', '--as=bob'])) === 'yes',
      'aggregated',
    );
    assert.equal(await canI(['create', 'lamps', '-n', 'kube-system', '--as=bob']), 'no');
    const listed = await run(['--as=bob', 'get', 'lamps', '-n', 'default']);
    assert.equal(listed.code, 0, listed.stderr);
  });
});
