import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operationGroupVersion, operationTag, schemaPrefix, toValidOperationId } from './names.js';

describe('schema names', () => {
  for (const [group, version, prefix] of [
    ['', 'v1', 'io.k8s.api.core.v1'],
    ['coordination.k8s.io', 'v1', 'io.k8s.api.coordination.v1'],
    ['rbac.authorization.k8s.io', 'v1', 'io.k8s.api.rbac.v1'],
    ['apps', 'v1', 'io.k8s.api.apps.v1'],
    ['autoscaling', 'v2', 'io.k8s.api.autoscaling.v2'],
    ['apiextensions.k8s.io', 'v1', 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1'],
    ['stable.example.com', 'v1', 'com.example.stable.v1'],
    ['snapshot.storage.k8s.io', 'v1', 'io.k8s.storage.snapshot.v1'],
  ]) {
    it(`${group || 'core'}/${version} → ${prefix}`, () => assert.equal(schemaPrefix(group, version), prefix));
  }
});

describe('operation ids', () => {
  for (const [group, version, id, tag] of [
    ['', 'v1', 'CoreV1', 'core_v1'],
    ['coordination.k8s.io', 'v1', 'CoordinationV1', 'coordination_v1'],
    ['rbac.authorization.k8s.io', 'v1', 'RbacAuthorizationV1', 'rbacAuthorization_v1'],
    [
      'flowcontrol.apiserver.k8s.io',
      'v1beta3',
      'FlowcontrolApiserverV1beta3',
      'flowcontrolApiserver_v1beta3',
    ],
    ['stable.example.com', 'v1', 'StableExampleComV1', 'stableExampleCom_v1'],
  ]) {
    it(`${group || 'core'}/${version}`, () => {
      assert.equal(operationGroupVersion(group, version), id);
      assert.equal(operationTag(group, version), tag);
    });
  }

  it('drops non-letters and capitalizes after them, keeping inner digits', () => {
    assert.equal(toValidOperationId('my-group2.io', true), 'MyGroup2Io');
    assert.equal(toValidOperationId('2fast', false), 'Fast');
  });
});
