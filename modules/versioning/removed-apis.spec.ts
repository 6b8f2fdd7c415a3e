import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noLongerServed, notServedError } from './removed-apis.js';

describe('versions no longer served', () => {
  it('name the replacement of a removed group-version, for any path in it', () => {
    const flowcontrol =
      'flowcontrol.apiserver.k8s.io/v1beta3 is no longer served since v1.32; use flowcontrol.apiserver.k8s.io/v1';
    assert.equal(noLongerServed('flowcontrol.apiserver.k8s.io', 'v1beta3'), flowcontrol);
    assert.equal(noLongerServed('flowcontrol.apiserver.k8s.io', 'v1beta3', 'flowschemas'), flowcontrol);
    assert.equal(
      noLongerServed('batch', 'v1beta1', 'cronjobs'),
      'batch/v1beta1 is no longer served since v1.25; use batch/v1',
    );
    assert.equal(
      noLongerServed('autoscaling', 'v2beta2', 'horizontalpodautoscalers'),
      'autoscaling/v2beta2 is no longer served since v1.26; use autoscaling/v2',
    );
  });

  it('name the replacement of a removed resource whose group-version lives on', () => {
    assert.equal(
      noLongerServed('storage.k8s.io', 'v1beta1', 'csistoragecapacities'),
      'storage.k8s.io/v1beta1 CSIStorageCapacity is no longer served since v1.27; use storage.k8s.io/v1 CSIStorageCapacity',
    );
    assert.equal(
      noLongerServed('extensions', 'v1beta1', 'deployments'),
      'extensions/v1beta1 Deployment is no longer served since v1.16; use apps/v1 Deployment',
    );
    assert.equal(
      noLongerServed('coordination.k8s.io', 'v1beta1', 'leases'),
      'coordination.k8s.io/v1beta1 Lease is no longer served since v1.22; use coordination.k8s.io/v1 Lease',
    );
    // the group-version itself (discovery) is not reported as removed
    assert.equal(noLongerServed('storage.k8s.io', 'v1beta1'), undefined);
    assert.equal(noLongerServed('coordination.k8s.io', 'v1beta1', 'leasecandidates'), undefined);
  });

  it('say nothing about versions Kubernetes still serves or never had', () => {
    assert.equal(noLongerServed('batch', 'v1', 'cronjobs'), undefined);
    assert.equal(noLongerServed('example.com', 'v1beta1'), undefined);
  });

  it('become a 404 Status naming the replacement', () => {
    const e = notServedError('policy', 'v1beta1', 'poddisruptionbudgets');
    assert.equal(e.code, 404);
    assert.equal(e.reason, 'NotFound');
    assert.equal(
      e.message,
      'the server could not find the requested resource: policy/v1beta1 is no longer served since v1.25; use policy/v1',
    );
    assert.equal(
      notServedError('nope.example.com', 'v1').message,
      'the server could not find the requested resource',
    );
  });
});
