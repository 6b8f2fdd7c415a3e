/** Which requests a sidecar serves itself, and how the others reach the upstream. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo } from '../api/index.js';
import { forwardedAs, servedLocally } from './local-requests.js';

const local = new Set(['apiextensions.k8s.io', 'widgets.example.com']);
const served = (path: string, method = 'GET') => servedLocally(parseRequestInfo(method, path, {}), local);

describe('servedLocally', () => {
  it('its own groups: resources, their discovery and OpenAPI documents', () => {
    for (const path of [
      '/apis/widgets.example.com/v1alpha1/namespaces/default/widgets',
      '/apis/widgets.example.com/v1alpha1/namespaces/default/widgets/w1/status',
      '/apis/widgets.example.com/v1alpha1',
      '/apis/widgets.example.com',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      '/openapi/v3/apis/widgets.example.com/v1alpha1',
      // a version it does not serve is its own 404, not the upstream's
      '/apis/widgets.example.com/v9/widgets',
    ])
      assert.equal(served(path), true, path);
    assert.equal(served('/apis/widgets.example.com/v1alpha1/namespaces/default/widgets', 'POST'), true);
  });

  it('the merged documents, health and metrics', () => {
    for (const path of [
      '/apis',
      '/apis/',
      '/openapi/v2',
      '/openapi/v3',
      '/healthz',
      '/readyz/ping',
      '/livez',
      '/metrics',
    ])
      assert.equal(served(path), true, path);
  });

  it('everything else is the upstream’s: the core group, other groups, /version, unknown paths', () => {
    for (const path of [
      '/api',
      '/api/v1',
      '/api/v1/namespaces/default/configmaps',
      '/api/v1/namespaces/default/pods/p/exec',
      '/apis/apps/v1/deployments',
      '/apis/apps',
      '/apis/apps/v1',
      '/openapi/v3/api/v1',
      '/openapi/v3/apis/apps/v1',
      '/version',
      '/.well-known/openid-configuration',
      '/openid/v1/jwks',
      '/logs/',
      '/metricsx',
      '/healthzz',
    ])
      assert.equal(served(path), false, path);
  });

  it('the core group is local only when served here', () => {
    const info = parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps', {});
    assert.equal(servedLocally(info, new Set([''])), true);
    assert.equal(servedLocally(parseRequestInfo('GET', '/api', {}), new Set([''])), true);
  });
});

describe('forwardedAs', () => {
  it('a token or no credential: as the caller sent it; a client certificate alone: as the user found here', () => {
    assert.equal(forwardedAs(true, false), 'caller');
    assert.equal(forwardedAs(false, false), 'caller');
    assert.equal(forwardedAs(true, true), 'caller');
    assert.equal(forwardedAs(false, true), 'user');
  });
});
