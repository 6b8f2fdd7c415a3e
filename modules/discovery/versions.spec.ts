import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allTestDefinitions, cronTabs } from '../../test/support/definitions.js';
import { compareKubeAwareVersions, groupVersions, orderedGroups } from './versions.js';

describe('compareKubeAwareVersions', () => {
  it('orders GA > beta > alpha > non-kube versions, higher numbers first, others alphabetically', () => {
    const versions = ['v1alpha1', 'v1', 'foo', 'v2beta1', 'v1beta2', 'v10', 'bar', 'v2', 'v1beta1'];
    const sorted = [...versions].sort((a, b) => compareKubeAwareVersions(b, a));
    assert.deepEqual(sorted, ['v10', 'v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v1alpha1', 'bar', 'foo']);
  });

  for (const [a, b, sign] of [
    ['v1', 'v1', 0],
    ['v1', 'v1beta1', 1],
    ['v1beta1', 'v1alpha2', 1],
    ['v1beta2', 'v1beta10', -1],
    ['v2alpha1', 'v1beta1', -1],
    ['v1', 'foo', 1],
  ] as const) {
    it(`${a} vs ${b} → ${sign}`, () => assert.equal(Math.sign(compareKubeAwareVersions(a, b)), sign));
  }
});

describe('group ordering', () => {
  it('puts built-in groups by kube priority ahead of CRD groups, which sort by name', () => {
    const defs = allTestDefinitions();
    assert.deepEqual(
      orderedGroups(defs, 'group').map((g) => g.group),
      ['apps', 'coordination.k8s.io', 'stable.example.com', 'widgets.example.org'],
    );
  });

  it('orders CRD group ties by APIService name (<version>.<group>) for the legacy list', () => {
    const a = { ...cronTabs, group: 'a.example.com', versions: ['v2'] };
    const b = { ...cronTabs, group: 'b.example.com', versions: ['v1'] };
    assert.deepEqual(
      orderedGroups([a, b], 'apiservice').map((g) => g.group),
      ['b.example.com', 'a.example.com'],
    );
    assert.deepEqual(
      orderedGroups([a, b], 'group').map((g) => g.group),
      ['a.example.com', 'b.example.com'],
    );
  });

  it('unions versions across definitions of a group and prefers the highest', () => {
    const other = { ...cronTabs, resource: 'others', kind: 'Other', versions: ['v2alpha1'] };
    assert.deepEqual(groupVersions([cronTabs, other], 'stable.example.com'), ['v1', 'v1beta1', 'v2alpha1']);
    assert.deepEqual(groupVersions([cronTabs], 'nope.example.com'), []);
  });

  it('ranks autoscaling/v2 above v1 as kube does', () => {
    const hpa = { ...cronTabs, group: 'autoscaling', versions: ['v1', 'v2'] };
    assert.deepEqual(groupVersions([hpa], 'autoscaling'), ['v2', 'v1']);
  });
});
