/**
 * How kube-apiserver v1.32 answers JSON patches it cannot use: a body of the wrong shape is a 400 with
 * encoding/json's text, too many operations a 413, and every operation that cannot be applied the same
 * generic 422 (reason Invalid, empty details); the library's reason stays on the error as `detail`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../api/index.js';
import { applyJsonPatch } from './json-patch.js';
import { PatchRejectedError } from './patch-errors.js';

const doc = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', labels: { app: 'web' }, finalizers: ['a', 'b'] },
  data: { k: 'v' },
};

describe('JSON patch: body shape errors are 400 BadRequest', () => {
  const cases: { name: string; body: unknown; message: string }[] = [
    {
      name: 'an object instead of a list',
      body: { op: 'add', path: '/x', value: 1 },
      message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    },
    {
      name: 'a string',
      body: 'add',
      message: 'json: cannot unmarshal string into Go value of type jsonpatch.Patch',
    },
    {
      name: 'a number',
      body: 7,
      message: 'json: cannot unmarshal number into Go value of type jsonpatch.Patch',
    },
    {
      name: 'a boolean',
      body: true,
      message: 'json: cannot unmarshal bool into Go value of type jsonpatch.Patch',
    },
    {
      name: 'an operation that is a number',
      body: [{ op: 'test', path: '/data', value: { k: 'v' } }, 5],
      message: 'json: cannot unmarshal number into Go value of type jsonpatch.Operation',
    },
    {
      name: 'an operation that is a list',
      body: [[]],
      message: 'json: cannot unmarshal array into Go value of type jsonpatch.Operation',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.throws(
        () => applyJsonPatch(doc, c.body),
        (err: unknown) => {
          assert.ok(err instanceof ApiError);
          assert.deepEqual(err.toStatus(), {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: c.message,
            reason: 'BadRequest',
            code: 400,
          });
          return true;
        },
      );
    });
  }

  it('null is an empty patch', () => {
    assert.deepEqual(applyJsonPatch(doc, null), doc);
  });
});

describe('JSON patch: more than 10000 operations is 413', () => {
  it('accepts 10000 and refuses 10001', () => {
    const op = { op: 'test', path: '/kind', value: 'ConfigMap' };
    assert.deepEqual(applyJsonPatch(doc, new Array(10000).fill(op)), doc);
    assert.throws(
      () => applyJsonPatch(doc, new Array(10001).fill(op)),
      (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.code, 413);
        assert.equal(err.reason, 'RequestEntityTooLarge');
        assert.equal(
          err.message,
          'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
        );
        return true;
      },
    );
  });
});

describe('JSON patch: operations that cannot be applied are the generic 422', () => {
  const opKind = (op: unknown) => {
    const kind = (op as { op?: unknown } | undefined)?.op;
    return typeof kind === 'string' ? kind : 'unknown';
  };
  const cases: { name: string; ops: unknown[]; detail: string }[] = [
    {
      name: 'a failed test',
      ops: [{ op: 'test', path: '/metadata/labels/app', value: 'db' }],
      detail: 'testing value /metadata/labels/app failed: test failed',
    },
    {
      name: 'a test of a missing member against a value',
      ops: [{ op: 'test', path: '/metadata/labels/tier', value: 'db' }],
      detail: 'testing value /metadata/labels/tier failed: test failed',
    },
    {
      name: 'a test without a value',
      ops: [{ op: 'test', path: '/kind' }],
      detail: 'testing value /kind failed: test failed',
    },
    {
      name: 'a test of the whole document',
      ops: [{ op: 'test', path: '', value: {} }],
      detail: 'testing value  failed: test failed',
    },
    {
      name: 'removing a missing member',
      ops: [{ op: 'remove', path: '/metadata/labels/tier' }],
      detail:
        "error in remove for path: '/metadata/labels/tier': Unable to remove nonexistent key: tier: missing value",
    },
    {
      name: 'removing below a missing member',
      ops: [{ op: 'remove', path: '/spec/replicas' }],
      detail: 'remove operation does not apply: doc is missing path: "/spec/replicas": missing value',
    },
    {
      name: 'removing past the end of a list',
      ops: [{ op: 'remove', path: '/metadata/finalizers/2' }],
      detail:
        "error in remove for path: '/metadata/finalizers/2': Unable to access invalid index: 2: invalid index referenced",
    },
    {
      name: 'replacing below a missing member',
      ops: [{ op: 'replace', path: '/spec/replicas', value: 2 }],
      detail: 'replace operation does not apply: doc is missing path: /spec/replicas: missing value',
    },
    {
      name: 'replacing past the end of a list',
      ops: [{ op: 'replace', path: '/metadata/finalizers/5', value: 'c' }],
      detail: 'replace operation does not apply: doc is missing key: /metadata/finalizers/5: missing value',
    },
    {
      name: 'replacing the "-" position',
      ops: [{ op: 'replace', path: '/metadata/finalizers/-', value: 'c' }],
      detail: 'replace operation does not apply: doc is missing key: /metadata/finalizers/-: missing value',
    },
    {
      name: 'adding past the end of a list',
      ops: [{ op: 'add', path: '/metadata/finalizers/3', value: 'c' }],
      detail:
        "error in add for path: '/metadata/finalizers/3': Unable to access invalid index: 3: invalid index referenced",
    },
    {
      name: 'a list index that is not a number',
      ops: [{ op: 'add', path: '/metadata/finalizers/x', value: 'c' }],
      detail:
        "error in add for path: '/metadata/finalizers/x': value was not a proper array index: 'x': " +
        'strconv.Atoi: parsing "x": invalid syntax',
    },
    {
      name: 'a pointer without a slash',
      ops: [{ op: 'add', path: 'metadata', value: {} }],
      detail: 'add operation does not apply: doc is missing path: "metadata": missing value',
    },
    {
      name: 'adding at the root',
      ops: [{ op: 'add', path: '', value: {} }],
      detail: 'add operation does not apply: doc is missing path: "": missing value',
    },
    {
      name: 'a pointer through a scalar',
      ops: [{ op: 'add', path: '/kind/x', value: 1 }],
      detail: 'add operation does not apply: doc is missing path: "/kind/x": missing value',
    },
    { name: 'an unknown op', ops: [{ op: 'merge', path: '/x' }], detail: 'Unexpected kind: merge' },
    { name: 'a missing op', ops: [{ path: '/x', value: 1 }], detail: 'Unexpected kind: unknown' },
    { name: 'an op that is not a string', ops: [{ op: 1, path: '/x' }], detail: 'Unexpected kind: unknown' },
    { name: 'a null operation', ops: [null], detail: 'Unexpected kind: unknown' },
    {
      name: 'a missing path on add',
      ops: [{ op: 'add', value: 1 }],
      detail: 'add operation failed to decode path: missing value',
    },
    {
      name: 'a missing path on replace',
      ops: [{ op: 'replace', value: 1 }],
      detail: 'replace operation failed to decode path: operation missing path field: missing value',
    },
    {
      name: 'a path that is not a string',
      ops: [{ op: 'test', path: 3, value: 1 }],
      detail:
        'test operation failed to decode path: json: cannot unmarshal number into Go value of type string',
    },
    {
      name: 'a move without from',
      ops: [{ op: 'move', path: '/x' }],
      detail: 'move operation failed to decode from: operation, missing from field: missing value',
    },
    {
      name: 'moving a missing member',
      ops: [{ op: 'move', from: '/data/nope', path: '/data/k2' }],
      detail: "error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value",
    },
    {
      name: 'moving a member into itself',
      ops: [{ op: 'move', from: '/metadata', path: '/metadata/labels' }],
      detail:
        'move operation does not apply: doc is missing destination path: /metadata/labels: missing value',
    },
    {
      name: 'copying from a missing parent',
      ops: [{ op: 'copy', from: '/spec/x', path: '/data/x' }],
      detail: 'copy operation does not apply: doc is missing from path: /spec/x: missing value',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.throws(
        () => applyJsonPatch(doc, c.ops),
        (err: unknown) => {
          assert.ok(err instanceof PatchRejectedError);
          assert.equal(err.detail, c.detail);
          assert.deepEqual(err.toStatus(), {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: 'the server rejected our request due to an error in our request',
            reason: 'Invalid',
            // the failing operation is named (kube's details are empty)
            details: {
              causes: [
                {
                  reason: 'FieldValueInvalid',
                  field: `[${c.ops.length - 1}]`,
                  message: `${opKind(c.ops.at(-1))}: ${c.detail}`,
                },
              ],
            },
            code: 422,
          });
          return true;
        },
      );
    });
  }

  it('stops at the first failing operation, leaving the document as it was', () => {
    const ops = [
      { op: 'add', path: '/data/new', value: 'x' },
      { op: 'test', path: '/data/k', value: 'other' },
    ];
    assert.throws(() => applyJsonPatch(doc, ops), PatchRejectedError);
    assert.equal((doc.data as Record<string, string>).new, undefined);
  });

  it('limits how much copy operations may add', () => {
    const big = { blob: 'x'.repeat(100) };
    const copies = [0, 1, 2].map((i) => ({ op: 'copy', from: '/blob', path: `/c${i}` }));
    assert.throws(
      () => applyJsonPatch(big, copies, { maxCopyBytes: 250 }),
      (err: unknown) =>
        err instanceof PatchRejectedError &&
        err.detail ===
          'Unable to complete the copy, the accumulated size increase of copy is 306, exceeding the limit 250',
    );
    assert.equal(
      Object.keys(applyJsonPatch(big, copies.slice(0, 2), { maxCopyBytes: 250 }) as object).length,
      3,
    );
  });
});
