/** kube's ValidFieldPath: which paths name a field of a structural schema. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validFieldPath } from './field-path.js';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        'a.b': { type: 'string' },
        "it's": { type: 'integer' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        list: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

describe('validFieldPath', () => {
  const cases: { path: string; arrays?: boolean; want: string }[] = [
    { path: '.spec.list', want: 'ok spec.list array' },
    { path: ".spec['a.b']", arrays: true, want: 'ok spec.a.b string' },
    { path: ".spec['it\\'s']", arrays: true, want: "ok spec.it's integer" },
    { path: '.spec.labels.app', want: 'ok spec.labels[app] string' },
    { path: ".spec['a.b']", want: 'array notation is not allowed' },
    { path: '.spec.nope', want: 'does not refer to a valid field' },
    { path: '.spec.list.x', want: 'does not refer to a valid field' },
    { path: 'spec', want: 'expected [ or . but got: spec' },
    { path: '.spec.', want: 'unexpected end of JSON path' },
    { path: '.spec[0]', arrays: true, want: 'expected single quoted string but got 0' },
    { path: ".spec['a.b'", arrays: true, want: 'unexpected end of JSON path' },
    { path: ".spec['a\\q']", arrays: true, want: 'invalid string literal: invalid escape char \\q' },
  ];
  for (const c of cases)
    it(c.path + (c.arrays ? ' (arrays allowed)' : ''), () => {
      const r = validFieldPath(c.path, schema, c.arrays ?? false);
      assert.equal(r.ok ? `ok ${r.path} ${r.schema?.type}` : r.error, c.want);
    });
});
