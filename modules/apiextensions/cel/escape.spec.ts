import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validFieldPath } from '../crd/index.js';
import { escapeName, unescapeName } from './index.js';
import type { Schema } from '../../api/index.js';

const escapes: [string, string | undefined][] = [
  ['foo', 'foo'],
  ['_foo', '_foo'],
  ['foo_bar', 'foo_bar'],
  ['foo-bar', 'foo__dash__bar'],
  ['foo.bar', 'foo__dot__bar'],
  ['foo/bar', 'foo__slash__bar'],
  ['foo__bar', 'foo__underscores__bar'],
  ['a.b-c/d', 'a__dot__b__dash__c__slash__d'],
  ['namespace', '__namespace__'],
  ['in', '__in__'],
  ['return', '__return__'],
  ['1foo', undefined],
  ['', undefined],
  ['foo@bar', undefined],
  ['foo-bar@', undefined],
  ['föö', undefined],
];

describe('CEL names of properties (kube escaping)', () => {
  for (const [name, escaped] of escapes) {
    it(`${JSON.stringify(name)} → ${escaped}`, () => {
      assert.equal(escapeName(name), escaped);
      if (escaped !== undefined) assert.equal(unescapeName(escaped), name);
    });
  }
  it('an identifier escapeName does not make has no property', () => {
    assert.equal(unescapeName('__foo__'), undefined);
    assert.equal(unescapeName('x__namespace__'), undefined);
  });
});

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        x: { type: 'string' },
        'a.b': { type: 'string' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        list: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

const paths: [string, string | { error: string }][] = [
  ['.spec', 'spec'],
  ['.spec.x', 'spec.x'],
  [".spec['a.b']", 'spec.a.b'],
  [".spec.labels['k.8s/x']", 'spec.labels[k.8s/x]'],
  ['.spec.labels.foo', 'spec.labels[foo]'],
  [".spec['it\\'s']", { error: 'does not refer to a valid field' }],
  ['.spec.y', { error: 'does not refer to a valid field' }],
  ['.spec.x.y', { error: 'does not refer to a valid field' }],
  ['.spec.list[0]', { error: 'expected single quoted string but got 0' }],
  ['.spec[0]', { error: 'expected single quoted string but got 0' }],
  ['spec', { error: 'expected [ or . but got: spec' }],
  ['.spec.', { error: 'unexpected end of JSON path' }],
  [".spec['x'", { error: 'unexpected end of JSON path' }],
  [".spec['\\q']", { error: 'invalid string literal: invalid escape char \\q' }],
];

describe('fieldPath of a rule (kube ValidFieldPath)', () => {
  for (const [path, want] of paths) {
    it(`${path} → ${JSON.stringify(want)}`, () => {
      const r = validFieldPath(path, schema as Record<string, unknown>, true);
      if (typeof want === 'string') assert.deepEqual(r.ok && r.path, want);
      else assert.deepEqual(r, { ok: false, error: want.error });
    });
  }
  it('array notation can be refused (selectable fields)', () => {
    assert.deepEqual(validFieldPath(".spec['x']", schema as Record<string, unknown>, false), {
      ok: false,
      error: 'array notation is not allowed',
    });
  });
});
