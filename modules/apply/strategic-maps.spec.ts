/** Strategic merge of maps: recursive merge, null deletes, replace strategy, `$patch` in maps. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from './strategic-merge.js';
import { widget, widgetSchema } from '../../test/support/strategic-fixtures.js';

type Spec = Record<string, unknown>;

const cases: { name: string; original: Spec; patch: Spec; result: Spec }[] = [
  {
    name: 'adds a field',
    original: { nodeSelector: { a: '1' } },
    patch: { extra: { x: 1 } },
    result: { nodeSelector: { a: '1' }, extra: { x: 1 } },
  },
  {
    name: 'merges a nested map key by key',
    original: { nodeSelector: { a: '1', b: '2' } },
    patch: { nodeSelector: { b: '3', c: '4' } },
    result: { nodeSelector: { a: '1', b: '3', c: '4' } },
  },
  {
    name: 'null deletes a field; null for a missing field is ignored',
    original: { nodeSelector: { a: '1', b: '2' } },
    patch: { nodeSelector: { a: null, zz: null } },
    result: { nodeSelector: { b: '2' } },
  },
  {
    name: 'null deletes a whole map',
    original: { nodeSelector: { a: '1' }, extra: { k: 1 } },
    patch: { nodeSelector: null },
    result: { extra: { k: 1 } },
  },
  {
    name: 'a map with patch strategy replace is replaced',
    original: { template: { a: 'x', b: 'y' } },
    patch: { template: { b: 'z' } },
    result: { template: { b: 'z' } },
  },
  {
    name: '$patch: replace uses the map as sent',
    original: { nodeSelector: { a: '1', b: '2' } },
    patch: { nodeSelector: { $patch: 'replace', c: '3' } },
    result: { nodeSelector: { c: '3' } },
  },
  {
    name: '$patch: delete empties the map',
    original: { nodeSelector: { a: '1' }, extra: { k: 1 } },
    patch: { nodeSelector: { $patch: 'delete' } },
    result: { nodeSelector: {}, extra: { k: 1 } },
  },
  {
    name: 'a scalar replaces a map and a map replaces a scalar',
    original: { extra: { k: 1 }, tolerations: 'odd' },
    patch: { extra: 'flat', tolerations: { key: 'k' } },
    result: { extra: 'flat', tolerations: { key: 'k' } },
  },
  {
    name: 'a value the original lacks is taken without its nulls',
    original: {},
    patch: { nodeSelector: { a: null, b: 'x' }, extra: { deep: { gone: null, kept: [{ z: null, y: 1 }] } } },
    result: { nodeSelector: { b: 'x' }, extra: { deep: { kept: [{ y: 1 }] } } },
  },
  {
    name: 'a value the original lacks is taken without maps that carry $patch',
    original: {},
    patch: {
      containers: [{ name: 'gone', $patch: 'delete' }, { name: 'kept' }],
      rollout: { type: 'Recreate', rollingUpdate: { $patch: 'delete' } },
    },
    result: { containers: [{ name: 'kept' }], rollout: { type: 'Recreate' } },
  },
  {
    name: 'a directive map for a field the original lacks sets nothing',
    original: { extra: { k: 1 } },
    patch: { nodeSelector: { $patch: 'replace', a: 'x' } },
    result: { extra: { k: 1 } },
  },
  {
    name: 'an untyped field merges maps and replaces lists',
    original: { extra: { m: { a: 1 }, l: [1, 2] } },
    patch: { extra: { m: { b: 2 }, l: [3] } },
    result: { extra: { m: { a: 1, b: 2 }, l: [3] } },
  },
  {
    name: 'a $-prefixed key that is not a directive is an ordinary field',
    original: {},
    patch: { $other: 1 },
    result: { $other: 1 },
  },
];

describe('strategic merge: maps', () => {
  for (const c of cases) {
    it(c.name, () => {
      const original = widget(c.original);
      const patch = { spec: c.patch };
      const before = JSON.stringify([original, patch]);
      const out = applyStrategicMergePatch(original, patch, widgetSchema) as { spec: Spec };
      assert.deepEqual(out.spec, c.result);
      assert.equal(JSON.stringify([original, patch]), before, 'inputs untouched');
    });
  }

  it('$patch: replace at the top replaces the whole object', () => {
    const out = applyStrategicMergePatch(
      widget({ extra: { k: 1 } }),
      { $patch: 'replace', kind: 'Widget' },
      widgetSchema,
    );
    assert.deepEqual(out, { kind: 'Widget' });
  });

  it('$patch: delete at the top empties the object', () => {
    assert.deepEqual(applyStrategicMergePatch(widget({}), { $patch: 'delete' }, widgetSchema), {});
  });

  it('merges metadata and leaves the rest alone', () => {
    const out = applyStrategicMergePatch(
      widget({ extra: { k: 1 } }),
      { metadata: { labels: { app: 'x' } } },
      widgetSchema,
    );
    assert.deepEqual(out, {
      apiVersion: 'example.dev/v1',
      kind: 'Widget',
      metadata: { name: 'w', labels: { app: 'x' } },
      spec: { extra: { k: 1 } },
    });
  });

  it('a null body changes nothing', () => {
    const original = widget({ extra: { k: 1 } });
    const out = applyStrategicMergePatch(original, null, widgetSchema);
    assert.deepEqual(out, original);
    assert.notEqual(out, original);
  });
});
