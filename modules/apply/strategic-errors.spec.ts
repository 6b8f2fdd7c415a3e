/**
 * Malformed strategic merge patches. Texts are kube's; kube answers most of them with a 500, which rule 5
 * turns into 400s here, while "lists of lists" keeps kube's generic 422.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import { PatchRejectedError } from './patch-errors.js';
import { applyStrategicMergePatch } from './strategic-merge.js';
import { widget, widgetSchema } from '../../test/support/strategic-fixtures.js';

type Spec = Record<string, unknown>;

describe('strategic merge: body errors', () => {
  const bodies: [unknown, string][] = [
    [[{ spec: {} }], 'array'],
    ['spec', 'string'],
    [12, 'number'],
    [false, 'bool'],
  ];
  for (const [body, type] of bodies) {
    it(`a ${type} body is a 400`, () => {
      assert.throws(
        () => applyStrategicMergePatch(widget({}), body, widgetSchema),
        (err: unknown) =>
          err instanceof ApiError &&
          err.code === 400 &&
          err.message === `json: cannot unmarshal ${type} into Go value of type map[string]interface {}`,
      );
    });
  }
});

describe('strategic merge: directive and list errors', () => {
  const cases: { name: string; original: Spec; patch: Spec; message: string; code?: number }[] = [
    {
      name: 'an unknown $patch in a map',
      original: { nodeSelector: { a: '1' } },
      patch: { nodeSelector: { $patch: 'merge', zone: 'a' } },
      message: 'unknown patch type: merge in map: map[$patch:merge zone:a]',
    },
    {
      name: 'a $patch that is not a string',
      original: { nodeSelector: { a: '1' } },
      patch: { nodeSelector: { $patch: 5 } },
      message: 'unknown patch type: %!s(int64=5) in map: map[$patch:5]',
    },
    {
      name: 'a list of lists',
      original: { weights: [] },
      patch: { weights: [[1]] },
      message: 'lists of lists are not supported',
      code: 422,
    },
    {
      name: 'mixed element types',
      original: { weights: [1, 2] },
      patch: { weights: ['x'] },
      message: 'list element types are not identical: [[1 2] [x]]',
    },
    {
      name: 'integers and fractions do not mix',
      original: { weights: [1] },
      patch: { weights: [1.5] },
      message: 'list element types are not identical: [[1] [1.5]]',
    },
    {
      name: 'a merging list of maps without a merge key',
      original: { rules: [{ verb: 'get' }] },
      patch: { rules: [{ verb: 'list' }] },
      message: 'cannot merge lists without merge key for struct',
    },
    {
      name: 'two strategies besides retainKeys',
      original: { odd: ['a'] },
      patch: { odd: ['b'] },
      message: 'unexpected patch strategy: [merge replace]',
    },
    {
      name: 'a field the struct does not declare',
      original: { mystery: { a: 1 } },
      patch: { mystery: { b: 1 } },
      message: 'unable to find api field in struct WidgetSpec for the json field "mystery"',
    },
  ];
  for (const c of cases) {
    it(`${c.name} is a ${c.code ?? 400}`, () => {
      assert.throws(
        () => applyStrategicMergePatch(widget(c.original), { spec: c.patch }, widgetSchema),
        (err: unknown) => {
          assert.ok(err instanceof ApiError);
          if (c.code === 422) {
            assert.ok(err instanceof PatchRejectedError);
            assert.equal(err.detail, c.message);
            assert.equal(err.message, 'the server rejected our request due to an error in our request');
          } else {
            assert.equal(err.code, 400);
            assert.equal(err.reason, 'BadRequest');
            assert.equal(err.message, c.message);
          }
          return true;
        },
      );
    });
  }

  it('absurd nesting is a 400, not a crash', () => {
    let deep: Record<string, unknown> = {};
    const patch = deep;
    for (let i = 0; i < 20000; i++) {
      const next: Record<string, unknown> = {};
      deep.x = next;
      deep = next;
    }
    assert.throws(
      () => applyStrategicMergePatch(widget({}), { spec: { extra: patch } }, widgetSchema),
      (err: unknown) => err instanceof ApiError && err.code === 400,
    );
  });
});
