/** fieldValidation=Strict/Warn decoding of a JSON patch body into kube's operation struct. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import { jsonPatchStrictErrors } from './json-patch-strict.js';

describe('JSON patch: strict decoding', () => {
  it('reports members the operation struct does not have', () => {
    const body = [
      { op: 'add', path: '/a', value: 1, foo: true },
      { op: 'remove', path: '/b', Path: '/c' },
      null,
    ];
    assert.deepEqual(jsonPatchStrictErrors(body), [
      'json patch unknown field "[0].foo"',
      'json patch unknown field "[1].Path"',
    ]);
  });

  it('accepts any value and null strings', () => {
    assert.deepEqual(jsonPatchStrictErrors([{ op: 'add', path: '/a', from: null, value: [{ x: 1 }] }]), []);
    assert.deepEqual(jsonPatchStrictErrors(null), []);
  });

  const badRequests: { name: string; body: unknown; message: string }[] = [
    {
      name: 'a body that is not a list',
      body: { op: 'add' },
      message:
        'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    },
    {
      name: 'an operation that is a string',
      body: ['add'],
      message:
        'error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp',
    },
    {
      name: 'a path that is a number',
      body: [{ op: 'add', path: 1, value: 1 }],
      message:
        'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string',
    },
    {
      name: 'the first wrong type wins',
      body: [{ op: true, from: [] }],
      message:
        'error decoding patch: json: cannot unmarshal bool into Go struct field jsonPatchOp.op of type string',
    },
  ];
  for (const c of badRequests) {
    it(c.name, () => {
      assert.throws(
        () => jsonPatchStrictErrors(c.body),
        (err: unknown) => err instanceof ApiError && err.code === 400 && err.message === c.message,
      );
    });
  }
});
