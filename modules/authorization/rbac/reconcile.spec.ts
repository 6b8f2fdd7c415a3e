/** kube's reconciliation of a default role or binding with what is stored. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/index.js';
import { AUTOUPDATE, defaultClusterRoleBindings, defaultClusterRoles } from './bootstrap-policy.js';
import { reconciled } from './reconcile.js';

const byName = (list: KubeObject[], name: string) =>
  structuredClone(list.find((o) => o.metadata.name === name)!);

describe('default policy reconciliation', () => {
  const wanted = byName(defaultClusterRoles, 'system:discovery');

  it('an unchanged default needs nothing', () => {
    assert.equal(reconciled(structuredClone(wanted), wanted), undefined);
  });

  it('rules taken away come back; rules added stay', () => {
    const stored = structuredClone(wanted);
    stored.rules = [
      { verbs: ['get'], nonResourceURLs: ['/api'] },
      { verbs: ['get'], nonResourceURLs: ['/metrics'] },
    ];
    const next = reconciled(stored, wanted)!;
    assert.deepEqual((next.rules as object[]).slice(0, 2), stored.rules);
    assert.deepEqual((next.rules as object[]).slice(2), wanted.rules);
  });

  it('autoupdate "false" is left alone', () => {
    const stored = structuredClone(wanted);
    stored.rules = [];
    stored.metadata.annotations = { [AUTOUPDATE]: 'false' };
    assert.equal(reconciled(stored, wanted), undefined);
  });

  it('labels and annotations removed come back, others stay', () => {
    const stored = structuredClone(wanted);
    stored.metadata.labels = { mine: 'yes' };
    stored.metadata.annotations = {};
    const next = reconciled(stored, wanted)!;
    assert.deepEqual(next.metadata.labels, { mine: 'yes', 'kubernetes.io/bootstrapping': 'rbac-defaults' });
    assert.deepEqual(next.metadata.annotations, { [AUTOUPDATE]: 'true' });
  });

  it('subjects removed come back', () => {
    const binding = byName(defaultClusterRoleBindings, 'system:public-info-viewer');
    const stored = structuredClone(binding);
    stored.subjects = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'extra' }];
    const next = reconciled(stored, binding)!;
    assert.deepEqual(next.subjects, [...(stored.subjects as object[]), ...(binding.subjects as object[])]);
  });

  it("an aggregated role's selectors come back; its rules are the controller's", () => {
    const view = byName(defaultClusterRoles, 'view');
    const stored = structuredClone(view);
    stored.aggregationRule = { clusterRoleSelectors: [] };
    stored.rules = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
    const next = reconciled(stored, view)!;
    assert.deepEqual(next.aggregationRule, view.aggregationRule);
    assert.deepEqual(next.rules, stored.rules);
  });
});
