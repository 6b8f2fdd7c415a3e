/** Sidecar mode's flags: the upstream from a kubeconfig or the Pod's cluster, and what they imply. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from './config.js';

describe('sidecar flags', () => {
  it('none: not a sidecar', () => {
    const c = parseConfig([], {});
    assert.equal(c.upstream, undefined);
    assert.equal(c.builtinApis, true);
    assert.deepEqual(c.delegatedToUpstream, { authentication: false, authorization: false });
  });

  it('--upstream-kubeconfig: builtin APIs off, authentication and authorization delegated with kube’s 10 s caches', () => {
    const c = parseConfig(['--upstream-kubeconfig=/k/upstream'], {});
    assert.deepEqual(c.upstream, { kubeconfig: '/k/upstream' });
    assert.equal(c.builtinApis, false);
    assert.deepEqual(c.delegatedToUpstream, { authentication: true, authorization: true });
    assert.equal(c.authenticationTokenWebhookCacheTtlMs, 10_000);
    assert.equal(c.authorizationWebhookCacheAuthorizedTtlMs, 10_000);
    assert.deepEqual(c.controllers, ['garbagecollector']);
  });

  it('their own kubeconfig or local authorization flags win over the upstream', () => {
    const own = parseConfig(
      ['--upstream-kubeconfig=/k/u', '--authentication-kubeconfig=/k/a', '--authorization-mode=AlwaysAllow'],
      {},
    );
    assert.deepEqual(own.delegatedToUpstream, { authentication: false, authorization: false });
  });

  it('--upstream-in-cluster reads the service address from the environment, once', () => {
    const c = parseConfig(['--upstream-in-cluster'], {
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
    });
    assert.deepEqual(c.upstream, {
      inCluster: {
        host: '10.96.0.1',
        port: '443',
        serviceAccountDir: '/var/run/secrets/kubernetes.io/serviceaccount',
      },
    });
    assert.throws(
      () => parseConfig(['--upstream-in-cluster'], {}),
      /--upstream-in-cluster: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined/,
    );
  });

  it('refuses both upstreams, and builtin APIs in sidecar mode', () => {
    assert.throws(
      () =>
        parseConfig(['--upstream-kubeconfig=/k', '--upstream-in-cluster'], {
          KUBERNETES_SERVICE_HOST: 'h',
          KUBERNETES_SERVICE_PORT: '1',
        }),
      /exclude each other/,
    );
    assert.throws(
      () => parseConfig(['--upstream-kubeconfig=/k', '--builtin-apis=true'], {}),
      /--builtin-apis=true cannot be used in sidecar mode/,
    );
  });
});
