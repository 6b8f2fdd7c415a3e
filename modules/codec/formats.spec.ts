import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../api/status.js';
import { decodeBody, encodeBody, negotiateInput, negotiateOutput } from './formats.js';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as ApiError).code;
  }
  return 0;
};

describe('negotiation', () => {
  for (const [accept, format] of [
    [undefined, 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    ['application/yaml', 'yaml'],
    ['application/json;as=Table;v=v1;g=meta.k8s.io,application/json', 'json'],
    ['application/vnd.kubernetes.protobuf, application/json', 'json'],
    ['application/yaml;q=0.5, application/json', 'json'],
  ] as const) {
    it(`Accept ${accept} → ${format}`, () => assert.equal(negotiateOutput(accept).format, format));
  }
  it('Table and PartialObjectMetadata when the request can give them', () => {
    const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    assert.deepEqual(
      negotiateOutput(table, () => true),
      { format: 'json', conversion: { as: 'Table', version: 'v1' } },
    );
    assert.deepEqual(
      negotiateOutput(table, () => false),
      { format: 'json' },
    );
    const pom = 'application/json;as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io';
    assert.deepEqual(negotiateOutput(pom, (c) => c.as === 'PartialObjectMetadataList').conversion, {
      as: 'PartialObjectMetadataList',
      version: 'v1beta1',
    });
    assert.equal(
      code(() => negotiateOutput('application/json;as=Table;v=v9;g=meta.k8s.io', () => true)),
      406,
    );
  });

  it('406 when nothing fits', () => {
    assert.equal(
      code(() => negotiateOutput('text/html')),
      406,
    );
    assert.equal(
      code(() => negotiateOutput('application/json;as=Table;v=v1;g=meta.k8s.io')),
      406,
    );
  });
  it('415 on an unknown request type; JSON when unset', () => {
    assert.equal(negotiateInput(undefined), 'json');
    assert.equal(negotiateInput('application/yaml; charset=utf-8'), 'yaml');
    assert.equal(
      code(() => negotiateInput('text/plain')),
      415,
    );
  });
});

describe('bodies', () => {
  it('400 on malformed JSON and YAML', () => {
    assert.equal(
      code(() => decodeBody('{"a":', 'json')),
      400,
    );
    assert.equal(
      code(() => decodeBody('a: [b', 'yaml')),
      400,
    );
  });
  it('reads YAML as 1.1', () => {
    assert.deepEqual(decodeBody('a: yes\nb: "1"\n', 'yaml'), { a: true, b: '1' });
  });
  it('writes YAML with sorted keys', () => {
    assert.equal(encodeBody({ b: 1, a: { d: 1, c: 2 } }, 'yaml', false), 'a:\n  c: 2\n  d: 1\nb: 1\n');
  });
});
