import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo, queryFlag } from './request-info.js';

describe('boolean query parameters (kube Convert_Slice_string_To_bool)', () => {
  it('are true unless absent, 0 or false in any case', () => {
    for (const v of ['true', '1', 'maybe', '', 'yes', 'True']) assert.equal(queryFlag(v), true, v);
    for (const v of [undefined, '0', 'false', 'FALSE', 'False']) assert.equal(queryFlag(v), false, String(v));
  });

  it('make watch=maybe a watch and watch=FALSE a list', () => {
    const path = '/api/v1/namespaces/default/configmaps';
    assert.equal(parseRequestInfo('GET', path, { watch: 'maybe' }).verb, 'watch');
    assert.equal(parseRequestInfo('GET', path, { watch: '' }).verb, 'watch');
    assert.equal(parseRequestInfo('GET', path, { watch: 'FALSE' }).verb, 'list');
  });
});
