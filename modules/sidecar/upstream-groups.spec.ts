/** The upstream's group/versions as discovery's RemoteApis entries. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { upstreamGroups, upstreamGroupVersions } from './upstream-groups.js';
import { clashes } from './upstream-groups.js';

const apiVersions = { kind: 'APIVersions', versions: ['v1'] };
const groupList = {
  kind: 'APIGroupList',
  groups: [
    {
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    },
    {
      name: 'autoscaling',
      versions: [
        { groupVersion: 'autoscaling/v1', version: 'v1' },
        { groupVersion: 'autoscaling/v2', version: 'v2' },
      ],
      preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
    },
    { name: 'apiextensions.k8s.io', versions: [{ version: 'v1' }] },
    { name: '', versions: [{ version: 'v1' }] },
    { bogus: true },
  ],
};

describe('upstream groups', () => {
  it('reads /api and /apis: the core group first, each group preferred version first', () => {
    assert.deepEqual(upstreamGroups(apiVersions, groupList), [
      { group: '', versions: ['v1'] },
      { group: 'apps', versions: ['v1'] },
      { group: 'autoscaling', versions: ['v2', 'v1'] },
      { group: 'apiextensions.k8s.io', versions: ['v1'] },
    ]);
    assert.deepEqual(upstreamGroups(undefined, 'nonsense'), []);
  });

  it('entries named as APIServices, in the upstream order by priority; local groups left out', () => {
    const groups = upstreamGroups(apiVersions, groupList);
    const local = new Set(['apiextensions.k8s.io', 'widgets.example.com']);
    const entries = upstreamGroupVersions(groups, local);
    assert.deepEqual(
      entries.map((e) => e.apiService),
      ['v1.', 'v1.apps', 'v2.autoscaling', 'v1.autoscaling'],
    );
    const [core, apps, v2, v1] = entries;
    assert.ok(core.groupPriorityMinimum > apps.groupPriorityMinimum);
    assert.ok(apps.groupPriorityMinimum > v2.groupPriorityMinimum);
    assert.equal(v2.groupPriorityMinimum, v1.groupPriorityMinimum);
    assert.ok(v2.versionPriority > v1.versionPriority);
    // above kube's own highest (apiregistration.k8s.io, 18100): the upstream's order is kept in the merge
    assert.ok(Math.min(...entries.map((e) => e.groupPriorityMinimum)) > 18100);
    assert.deepEqual(clashes(groups, local), ['apiextensions.k8s.io']);
  });
});
