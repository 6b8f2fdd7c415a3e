/** `$retainKeys`: the fields a map may keep (sent by kubectl for fields with the retainKeys strategy). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import { applyStrategicMergePatch } from './strategic-merge.js';
import { widget, widgetSchema } from '../../test/support/strategic-fixtures.js';

type Spec = Record<string, unknown>;

const run = (original: Spec, patch: Spec) =>
  (applyStrategicMergePatch(widget(original), { spec: patch }, widgetSchema) as { spec: Spec }).spec;

const rolling = { rollout: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '1' } } };

const results: { name: string; original: Spec; patch: Spec; result: Spec }[] = [
  {
    name: 'clears the fields not listed, then merges',
    original: rolling,
    patch: { rollout: { $retainKeys: ['type'], type: 'Recreate' } },
    result: { rollout: { type: 'Recreate' } },
  },
  {
    name: 'works inside the elements of a merging list',
    original: { volumes: [{ name: 'data', emptyDir: { medium: 'Memory' } }] },
    patch: { volumes: [{ name: 'data', $retainKeys: ['hostPath', 'name'], hostPath: { path: '/srv' } }] },
    result: { volumes: [{ name: 'data', hostPath: { path: '/srv' } }] },
  },
  {
    name: 'null fields need not be listed',
    original: rolling,
    patch: { rollout: { $retainKeys: ['type'], rollingUpdate: null, type: 'Recreate' } },
    result: { rollout: { type: 'Recreate' } },
  },
  {
    name: 'list directives need not be listed',
    original: { hostnames: ['a'], nodeSelector: { x: 'y' } },
    patch: { $retainKeys: ['hostnames'], '$setElementOrder/hostnames': ['b', 'a'], hostnames: ['b'] },
    result: { hostnames: ['b', 'a'] },
  },
  {
    name: 'an empty list clears the map',
    original: { nodeSelector: { a: '1', b: '2' } },
    patch: { nodeSelector: { $retainKeys: [] } },
    result: { nodeSelector: {} },
  },
  {
    name: 'a retainKeys field without the directive merges as usual',
    original: rolling,
    patch: { rollout: { type: 'Recreate' } },
    result: { rollout: { type: 'Recreate', rollingUpdate: { maxSurge: '1' } } },
  },
];

describe('strategic merge: $retainKeys', () => {
  for (const c of results) {
    it(c.name, () => assert.deepEqual(run(c.original, c.patch), c.result));
  }

  const failures: { name: string; patch: Spec }[] = [
    {
      name: 'a patch field missing from the list',
      patch: { rollout: { $retainKeys: ['type'], rollingUpdate: {} } },
    },
    { name: 'a list that is not a list', patch: { rollout: { $retainKeys: 'type', type: 'Recreate' } } },
  ];
  for (const c of failures) {
    it(`${c.name} is a 400`, () => {
      assert.throws(
        () => run(rolling, c.patch),
        (err: unknown) =>
          err instanceof ApiError && err.code === 400 && err.message === 'invalid patch format of retainKeys',
      );
    });
  }
});
