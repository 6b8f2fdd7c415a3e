/** Which PATCH media types exist, and which a resource takes. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions } from '../kinds/index.js';
import { patchTypeOf, supportedPatchTypes, supportsStrategicMerge } from './patch-type.js';

describe('patch types: Content-Type', () => {
  const cases: [string, string | undefined][] = [
    ['application/json-patch+json', 'json'],
    ['application/merge-patch+json', 'merge'],
    ['application/strategic-merge-patch+json', 'strategic'],
    ['application/apply-patch+yaml', 'apply'],
    ['application/merge-patch+json; charset=utf-8', 'merge'],
    ['application/json-patch+json;charset=UTF-8', 'json'],
    ['application/Merge-Patch+json', undefined],
    ['application/merge-patch+json ; charset=utf-8', undefined],
    ['application/json', undefined],
    ['application/apply-patch+cbor', undefined],
    ['', undefined],
  ];
  for (const [contentType, type] of cases) {
    it(JSON.stringify(contentType), () => assert.equal(patchTypeOf(contentType), type));
  }
});

describe('patch types: strategic merge support', () => {
  it('every built-in kind supports it', () => {
    for (const def of builtinDefinitions) assert.equal(supportsStrategicMerge(def), true, def.kind);
  });

  it('a group kube does not serve itself does not', () => {
    assert.equal(supportsStrategicMerge({ group: 'stable.example.com' }), false);
    assert.equal(supportsStrategicMerge({ group: 'gateway.networking.k8s.io' }), false);
  });

  it('an explicit flag wins', () => {
    assert.equal(supportsStrategicMerge({ group: '', strategicMergePatch: false }), false);
    assert.equal(supportsStrategicMerge({ group: 'stable.example.com', strategicMergePatch: true }), true);
  });

  it('lists the accepted media types in kube order', () => {
    assert.deepEqual(supportedPatchTypes({ group: 'apps' }), [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    assert.deepEqual(supportedPatchTypes({ group: 'stable.example.com' }), [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/apply-patch+yaml',
    ]);
  });
});
