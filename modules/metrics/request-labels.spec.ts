import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo } from '../api/index.js';
import { requestLabels } from './request-labels.js';

const labels = (method: string, path: string, query: Record<string, string> = {}, contentType?: string) =>
  requestLabels(parseRequestInfo(method, path, query), method, contentType, query.dryRun);

describe('request metric labels', () => {
  it('reports verbs as kube does', () => {
    assert.equal(labels('GET', '/api/v1/namespaces/a/configmaps').verb, 'LIST');
    assert.equal(labels('GET', '/api/v1/namespaces/a/configmaps', { watch: '1' }).verb, 'WATCH');
    assert.equal(labels('GET', '/api/v1/namespaces/a/configmaps/x').verb, 'GET');
    assert.equal(labels('HEAD', '/api/v1/namespaces/a/configmaps/x').verb, 'GET');
    assert.equal(labels('POST', '/api/v1/namespaces/a/configmaps').verb, 'POST');
    assert.equal(labels('PUT', '/api/v1/namespaces/a/configmaps/x').verb, 'PUT');
    assert.equal(labels('DELETE', '/api/v1/namespaces/a/configmaps').verb, 'DELETE');
    assert.equal(
      labels('PATCH', '/api/v1/namespaces/a/configmaps/x', {}, 'application/merge-patch+json').verb,
      'PATCH',
    );
    assert.equal(
      labels('PATCH', '/api/v1/namespaces/a/configmaps/x', {}, 'application/apply-patch+yaml; charset=utf-8')
        .verb,
      'APPLY',
    );
  });

  it('names group, version, resource, subresource, scope and dry run', () => {
    assert.deepEqual(
      labels('PUT', '/apis/coordination.k8s.io/v1/namespaces/a/leases/l/status', { dryRun: 'All' }),
      {
        verb: 'PUT',
        dry_run: 'All',
        group: 'coordination.k8s.io',
        version: 'v1',
        resource: 'leases',
        subresource: 'status',
        scope: 'resource',
        component: 'apiserver',
      },
    );
    assert.equal(labels('GET', '/api/v1/configmaps').scope, 'cluster');
    assert.equal(labels('POST', '/api/v1/namespaces').scope, 'cluster');
    assert.equal(labels('GET', '/api/v1/namespaces/a/configmaps').scope, 'namespace');
    assert.equal(labels('GET', '/api/v1/namespaces/a').scope, 'resource');
  });

  it('keeps non-resource paths to a bounded set', () => {
    assert.equal(labels('GET', '/readyz/postgres').subresource, '/readyz');
    assert.equal(labels('GET', '/metrics').subresource, '/metrics');
    assert.equal(labels('GET', '/openapi/v3/api/v1').subresource, '/openapi/v3');
    assert.equal(labels('GET', '/some/unknown/path').subresource, 'other');
    assert.equal(labels('GET', '/metrics').resource, '');
  });
});
