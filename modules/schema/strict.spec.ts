import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeObject } from './decode.js';
import { findDuplicateFields } from './duplicates.js';
import { strictDecodingError, strictMessages } from './strict.js';
import { configMapSchema } from './spec-schemas.js';

describe('strictMessages', () => {
  it('lists unknown then duplicate fields, skipping repeats inside unknown fields', () => {
    assert.deepEqual(
      strictMessages(
        ['spec.foo', 'bar'],
        ['metadata.name', 'spec.foo', 'spec.foo.x', 'spec.foo[0]', 'spec.foobar'],
      ),
      [
        'unknown field "spec.foo"',
        'unknown field "bar"',
        'duplicate field "metadata.name"',
        'duplicate field "spec.foobar"',
      ],
    );
  });

  it('quotes paths as Go does', () => {
    assert.deepEqual(strictMessages(['a"b\n']), ['unknown field "a\\"b\\n"']);
  });

  it('caps the list at 100', () => {
    const many = Array.from({ length: 80 }, (_, i) => `f${i}`);
    assert.equal(
      strictMessages(
        many,
        many.map((f) => `d.${f}`),
      ).length,
      100,
    );
  });
});

describe('strict decoding of a request body', () => {
  it('reports unknown and duplicate fields the way kube words a Strict rejection', () => {
    const text = '{"kind":"ConfigMap","metadata":{"name":"a","name":"b","bogus":1},"data":{"k":"v","k":"w"}}';
    const { unknownFields } = decodeObject(JSON.parse(text), configMapSchema, { kind: 'ConfigMap' });
    const messages = strictMessages(unknownFields, findDuplicateFields(text));
    const err = strictDecodingError(messages, 'ConfigMap', 'v1');
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    assert.equal(
      err.message,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", duplicate field "metadata.name", duplicate field "data.k"',
    );
    assert.equal(
      strictDecodingError(['unknown field "x"']).message,
      'strict decoding error: unknown field "x"',
    );
  });
});
