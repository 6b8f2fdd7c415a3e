/**
 * Strategic merge of lists: lists of maps merged by merge key, lists of scalars merged as sets, lists
 * without a merge strategy replaced, and the element order kube produces.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from './strategic-merge.js';
import { widget, widgetSchema } from '../../test/support/strategic-fixtures.js';

type Spec = Record<string, unknown>;

const cases: { name: string; original: Spec; patch: Spec; result: Spec }[] = [
  {
    // without $setElementOrder, an element the server does not know goes before the server-only ones
    name: 'merges the element with the same key and adds a new one',
    original: {
      containers: [
        { name: 'web', image: 'nginx:1' },
        { name: 'log', image: 'busybox' },
      ],
    },
    patch: {
      containers: [
        { name: 'web', image: 'nginx:2' },
        { name: 'cache', image: 'redis' },
      ],
    },
    result: {
      containers: [
        { name: 'web', image: 'nginx:2' },
        { name: 'cache', image: 'redis' },
        { name: 'log', image: 'busybox' },
      ],
    },
  },
  {
    name: "keeps the patch's order and slots server-only elements by the server's order",
    original: { containers: [{ name: 'a' }, { name: 'b', image: 'i' }, { name: 'c' }] },
    patch: {
      containers: [
        { name: 'c', image: 'ic' },
        { name: 'a', image: 'ia' },
      ],
    },
    result: {
      containers: [
        { name: 'b', image: 'i' },
        { name: 'c', image: 'ic' },
        { name: 'a', image: 'ia' },
      ],
    },
  },
  {
    name: 'a patch naming every element sets the order',
    original: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
    patch: { containers: [{ name: 'c' }, { name: 'a' }, { name: 'b' }] },
    result: { containers: [{ name: 'c' }, { name: 'a' }, { name: 'b' }] },
  },
  {
    name: 'merges recursively into nested keyed lists',
    original: {
      containers: [
        {
          name: 'web',
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
        },
      ],
    },
    patch: {
      containers: [
        {
          name: 'web',
          env: [
            { name: 'B', value: null },
            { name: 'C', value: '3' },
          ],
        },
      ],
    },
    result: {
      containers: [
        { name: 'web', env: [{ name: 'A', value: '1' }, { name: 'B' }, { name: 'C', value: '3' }] },
      ],
    },
  },
  {
    name: 'merges by a numeric merge key',
    original: { containers: [{ name: 'web', ports: [{ containerPort: 80 }, { containerPort: 443 }] }] },
    patch: {
      containers: [
        { name: 'web', ports: [{ containerPort: 443, protocol: 'TCP' }, { containerPort: 8080 }] },
      ],
    },
    result: {
      containers: [
        {
          name: 'web',
          ports: [{ containerPort: 80 }, { containerPort: 443, protocol: 'TCP' }, { containerPort: 8080 }],
        },
      ],
    },
  },
  {
    name: 'merges a string list as a set',
    original: { hostnames: ['a', 'b'] },
    patch: { hostnames: ['b', 'c', 'c'] },
    result: { hostnames: ['a', 'b', 'c'] },
  },
  {
    name: 'a set merge follows the patch order for the values it names',
    original: { hostnames: ['a', 'b', 'c'] },
    patch: { hostnames: ['c', 'a'] },
    result: { hostnames: ['b', 'c', 'a'] },
  },
  {
    name: 'merges a number list as a set',
    original: { weights: [1, 2] },
    patch: { weights: [2, 3] },
    result: { weights: [1, 2, 3] },
  },
  {
    name: 'an empty patch list leaves a merging list alone',
    original: { hostnames: ['a'], containers: [{ name: 'x' }] },
    patch: { hostnames: [], containers: [] },
    result: { hostnames: ['a'], containers: [{ name: 'x' }] },
  },
  {
    name: 'a list without a strategy is replaced',
    original: { tolerations: [{ key: 'a' }, { key: 'b' }], containers: [{ name: 'w', args: ['-v', '-x'] }] },
    patch: { tolerations: [{ key: 'c' }], containers: [{ name: 'w', args: ['-q'] }] },
    result: { tolerations: [{ key: 'c' }], containers: [{ name: 'w', args: ['-q'] }] },
  },
  {
    name: 'an empty list replaces a list without a strategy',
    original: { tolerations: [{ key: 'a' }] },
    patch: { tolerations: [] },
    result: { tolerations: [] },
  },
  {
    name: 'a list the original lacks is taken as sent',
    original: {},
    patch: { containers: [{ name: 'b' }, { name: 'a' }], hostnames: ['z', 'z'] },
    result: { containers: [{ name: 'b' }, { name: 'a' }], hostnames: ['z', 'z'] },
  },
  {
    name: 'a list with strategies merge and retainKeys merges',
    original: { volumes: [{ name: 'data', emptyDir: {} }] },
    patch: { volumes: [{ name: 'conf', secret: { secretName: 's' } }] },
    result: {
      volumes: [
        { name: 'conf', secret: { secretName: 's' } },
        { name: 'data', emptyDir: {} },
      ],
    },
  },
  {
    name: 'a list that replaces a scalar',
    original: { hostnames: 'single' },
    patch: { hostnames: ['a'] },
    result: { hostnames: ['a'] },
  },
];

describe('strategic merge: lists', () => {
  for (const c of cases) {
    it(c.name, () => {
      const out = applyStrategicMergePatch(widget(c.original), { spec: c.patch }, widgetSchema) as {
        spec: Spec;
      };
      assert.deepEqual(out.spec, c.result);
    });
  }
});
