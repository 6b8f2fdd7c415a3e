/** Custom resource tables: kube's columns and cells from additionalPrinterColumns. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/index.js';
import { customResourceColumns } from './columns.js';
import { columnPathError } from './validation-columns.js';

const now = Date.parse('2026-01-01T00:10:00Z');
const widget: KubeObject = {
  metadata: { name: 'w1', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: {
    replicas: 3,
    ratio: 0.75,
    color: 'red',
    on: true,
    nested: { a: 1 },
    when: '2025-12-31T23:00:00Z',
    bad: 'yesterday',
  },
  status: { conditions: [{ type: 'Ready', status: 'True' }], none: null },
};

describe('customResourceColumns', () => {
  it('Name then Age when the version declares none', () => {
    const cols = customResourceColumns(undefined);
    assert.deepEqual(
      cols.map((c) => [c.name, c.type, c.jsonPath]),
      [
        ['Name', 'string', '.metadata.name'],
        ['Age', 'date', '.metadata.creationTimestamp'],
      ],
    );
    assert.equal(cols[1].cell!(widget, now), '10m');
  });

  const cases: { name: string; type: string; jsonPath: string; want: unknown }[] = [
    { name: 'a string', type: 'string', jsonPath: '.spec.color', want: 'red' },
    {
      name: 'a filter',
      type: 'string',
      jsonPath: '.status.conditions[?(@.type=="Ready")].status',
      want: 'True',
    },
    { name: 'a number printed in a string column', type: 'string', jsonPath: '.spec.replicas', want: '3' },
    {
      name: 'an object printed in a string column',
      type: 'string',
      jsonPath: '.spec.nested',
      want: '{"a":1}',
    },
    { name: 'null in a string column', type: 'string', jsonPath: '.status.none', want: '<no value>' },
    { name: 'missing', type: 'string', jsonPath: '.spec.nothing', want: null },
    { name: 'an integer', type: 'integer', jsonPath: '.spec.replicas', want: 3 },
    { name: 'a float in an integer column', type: 'integer', jsonPath: '.spec.ratio', want: 0 },
    { name: 'a number', type: 'number', jsonPath: '.spec.ratio', want: 0.75 },
    { name: 'a string in a number column', type: 'number', jsonPath: '.spec.color', want: null },
    { name: 'a boolean', type: 'boolean', jsonPath: '.spec.on', want: true },
    { name: 'a date', type: 'date', jsonPath: '.spec.when', want: '70m' },
    { name: 'a bad date', type: 'date', jsonPath: '.spec.bad', want: '<invalid>' },
    { name: 'the first match only', type: 'string', jsonPath: '.status.conditions[*].type', want: 'Ready' },
  ];
  for (const c of cases)
    it(c.name, () => {
      const [, col] = customResourceColumns([{ name: 'X', type: c.type, jsonPath: c.jsonPath }]);
      assert.equal(col.description, `Custom resource definition column (in JSONPath format): ${c.jsonPath}`);
      assert.equal(col.cell!(widget, now), c.want);
    });

  it('a path that does not parse has no column; validation can say so', () => {
    assert.equal(customResourceColumns([{ name: 'X', type: 'string', jsonPath: '.a[' }]).length, 1);
    assert.equal(columnPathError('.a['), 'unrecognized column definition ".a["');
    assert.equal(columnPathError('.a[0]'), undefined);
  });
});
