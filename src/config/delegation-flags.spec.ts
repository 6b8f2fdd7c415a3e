/**
 * The delegating server's flags (kube's delegating options): their defaults (10 s caches, the health paths),
 * what each host flag excludes, and flags that mean nothing without the host.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from './config.js';

describe('delegation flags', () => {
  it('not delegating: the standalone defaults stay', () => {
    const c = parseConfig([], {});
    assert.equal(c.authenticationKubeconfig, undefined);
    assert.equal(c.authorizationKubeconfig, undefined);
    assert.equal(c.kubeconfig, undefined);
    assert.equal(c.authenticationTokenWebhookCacheTtlMs, 120_000);
    assert.equal(c.authorizationWebhookCacheAuthorizedTtlMs, 300_000);
    assert.equal(c.authorizationWebhookCacheUnauthorizedTtlMs, 30_000);
  });

  it("delegating: kube's 10 s caches and health paths, unless given", () => {
    const c = parseConfig(
      [
        '--authentication-kubeconfig=/h/authn',
        '--authorization-kubeconfig=/h/authz',
        '--kubeconfig=/h/core',
        '--authentication-skip-lookup',
        '--authentication-tolerate-lookup-failure=true',
      ],
      {},
    );
    assert.equal(c.authenticationKubeconfig, '/h/authn');
    assert.equal(c.authorizationKubeconfig, '/h/authz');
    assert.equal(c.kubeconfig, '/h/core');
    assert.equal(c.authenticationSkipLookup, true);
    assert.equal(c.authenticationTolerateLookupFailure, true);
    assert.equal(c.authenticationTokenWebhookCacheTtlMs, 10_000);
    assert.equal(c.authorizationWebhookCacheAuthorizedTtlMs, 10_000);
    assert.equal(c.authorizationWebhookCacheUnauthorizedTtlMs, 10_000);
    assert.deepEqual(c.authorizationAlwaysAllowPaths, ['/healthz', '/readyz', '/livez']);
    const given = parseConfig(
      [
        '--authentication-kubeconfig=/h/authn',
        '--authentication-token-webhook-cache-ttl=1m',
        '--authorization-kubeconfig=/h/authz',
        '--authorization-webhook-cache-authorized-ttl=0',
        '--authorization-webhook-cache-unauthorized-ttl=3s',
        '--authorization-always-allow-paths=/healthz,/metrics*',
        '--authorization-always-allow-paths=/version',
      ],
      {},
    );
    assert.equal(given.authenticationTokenWebhookCacheTtlMs, 60_000);
    assert.equal(given.authorizationWebhookCacheAuthorizedTtlMs, 0);
    assert.equal(given.authorizationWebhookCacheUnauthorizedTtlMs, 3_000);
    assert.deepEqual(given.authorizationAlwaysAllowPaths, ['/healthz', '/metrics*', '/version']);
    const none = parseConfig(['--authorization-kubeconfig=/h', '--authorization-always-allow-paths='], {});
    assert.deepEqual(none.authorizationAlwaysAllowPaths, []);
  });

  for (const [argv, message] of [
    [
      ['--authorization-kubeconfig=k', '--authorization-mode=RBAC'],
      /: --authorization-kubeconfig can not be specified when --authorization-mode flags are set$/,
    ],
    [
      ['--authorization-kubeconfig=k', '--authorization-config=a.yaml', '--authorization-webhook-version=v1'],
      /: --authorization-kubeconfig can not be specified when --authorization-config, --authorization-webhook-version flags are set$/,
    ],
    [
      ['--authorization-kubeconfig=k', '--authorization-always-allow-paths=/a/*/b'],
      /: --authorization-always-allow-paths: only trailing \* allowed in "a\/\*\/b"$/,
    ],
    [
      ['--authorization-always-allow-paths=/healthz'],
      /--authorization-always-allow-paths needs --authorization-kubeconfig/,
    ],
    [
      ['--authentication-kubeconfig=k', '--authentication-token-webhook-config-file=w'],
      /: --authentication-kubeconfig can not be specified when --authentication-token-webhook-config-file flags are set/,
    ],
    [
      ['--authentication-skip-lookup', '--authentication-tolerate-lookup-failure'],
      /: --authentication-skip-lookup, --authentication-tolerate-lookup-failure need --authentication-kubeconfig$/,
    ],
  ] as const) {
    it(`refuses ${argv.join(' ')}`, () => {
      assert.throws(() => parseConfig([...argv], {}), message);
    });
  }
});
