import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { builtinDefinitions } from '../../modules/kinds/index.js';
import { ConfigError, parseConfig } from './config.js';

describe('parseConfig', () => {
  it('applies defaults and DATABASE_URL', () => {
    const c = parseConfig(['serve'], { DATABASE_URL: 'postgres://x/y' });
    assert.equal(c.command, 'serve');
    assert.equal(c.dataDir, path.resolve('.pgkube'));
    assert.equal(c.databaseUrl, 'postgres://x/y');
    assert.equal(c.bindAddress, '127.0.0.1');
    assert.equal(c.securePort, 6443);
  });

  it('reads --flag=value and --flag value forms; flags win over env', () => {
    const c = parseConfig(
      ['serve', '--secure-port=0', '--database-url', 'postgres://a/b', '--data-dir=/tmp/d'],
      {
        DATABASE_URL: 'postgres://x/y',
      },
    );
    assert.equal(c.securePort, 0);
    assert.equal(c.databaseUrl, 'postgres://a/b');
    assert.equal(c.dataDir, '/tmp/d');
  });

  it('reads the authentication flags: anonymous access, the authentication config, the token webhook', () => {
    const d = parseConfig([], {});
    assert.equal(d.anonymousAuth, undefined, 'not given is not false: the config file may decide');
    assert.equal(d.authenticationTokenWebhookVersion, 'v1beta1');
    assert.equal(d.authenticationTokenWebhookCacheTtlMs, 120_000);
    assert.equal(d.authenticationTokenWebhookTimeoutMs, 30_000);
    const c = parseConfig(
      [
        '--anonymous-auth=false',
        '--authentication-config=/etc/authn.yaml',
        '--authentication-token-webhook-config-file=/etc/webhook.kubeconfig',
        '--authentication-token-webhook-version=v1',
        '--authentication-token-webhook-cache-ttl=0',
        '--authentication-token-webhook-timeout=2s',
      ],
      {},
    );
    assert.equal(c.anonymousAuth, false);
    assert.equal(c.authenticationConfig, '/etc/authn.yaml');
    assert.equal(c.authenticationTokenWebhookConfigFile, '/etc/webhook.kubeconfig');
    assert.equal(c.authenticationTokenWebhookVersion, 'v1');
    assert.equal(c.authenticationTokenWebhookCacheTtlMs, 0);
    assert.equal(c.authenticationTokenWebhookTimeoutMs, 2000);
    assert.throws(
      () => parseConfig(['--authentication-token-webhook-version=v2'], {}),
      /--authentication-token-webhook-version: unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"/,
    );
    assert.throws(() => parseConfig(['--authentication-token-webhook-timeout=31s'], {}), /at most 30s/);
    assert.throws(
      () => parseConfig(['--anonymous-auth=maybe'], {}),
      /--anonymous-auth: "maybe" is not a boolean/,
    );
  });

  it('a boolean flag alone is true and does not take the next argument (pflag)', () => {
    const c = parseConfig(['--anonymous-auth', '--secure-port=0'], {});
    assert.equal(c.anonymousAuth, true);
    assert.equal(c.securePort, 0);
    for (const v of ['f', 'F', '0', 'FALSE', 'False'])
      assert.equal(parseConfig([`--anonymous-auth=${v}`], {}).anonymousAuth, false);
    assert.throws(() => parseConfig(['--anonymous-auth', 'false'], {}), /unexpected argument "false"/);
  });

  it('reads kube durations for --history-retention', () => {
    assert.equal(parseConfig([], {}).historyRetentionMs, 300_000);
    assert.equal(parseConfig(['--history-retention=30s'], {}).historyRetentionMs, 30_000);
    assert.equal(parseConfig(['--history-retention=1h30m'], {}).historyRetentionMs, 5_400_000);
    assert.throws(() => parseConfig(['--history-retention=5 minutes'], {}), /not a duration/);
  });

  it('reads --http2-max-streams-per-connection (0: the default)', () => {
    assert.equal(parseConfig([], {}).http2MaxStreamsPerConnection, 0);
    assert.equal(
      parseConfig(['--http2-max-streams-per-connection=1000'], {}).http2MaxStreamsPerConnection,
      1000,
    );
    assert.throws(() => parseConfig(['--http2-max-streams-per-connection=-1'], {}), /non-negative integer/);
    assert.throws(() => parseConfig(['--http2-max-streams-per-connection=1.5'], {}), /non-negative integer/);
  });

  it('reads the request limits: --request-timeout, --min-request-timeout, --max-*-inflight', () => {
    const d = parseConfig([], {});
    assert.equal(d.requestTimeoutMs, 60_000);
    assert.equal(d.minRequestTimeoutS, 1800);
    assert.equal(d.maxRequestsInflight, 400);
    assert.equal(d.maxMutatingRequestsInflight, 200);
    const c = parseConfig(
      [
        '--request-timeout=1m0s',
        '--min-request-timeout=60',
        '--max-requests-inflight=0',
        '--max-mutating-requests-inflight',
        '5',
      ],
      {},
    );
    assert.equal(c.requestTimeoutMs, 60_000);
    assert.equal(c.minRequestTimeoutS, 60);
    assert.equal(c.maxRequestsInflight, 0);
    assert.equal(c.maxMutatingRequestsInflight, 5);
    assert.equal(parseConfig(['--request-timeout=2s'], {}).requestTimeoutMs, 2000);
    assert.equal(parseConfig(['--request-timeout=1500ms'], {}).requestTimeoutMs, 1500);
    assert.throws(() => parseConfig(['--request-timeout=0s'], {}), /--request-timeout: must be positive/);
    assert.throws(() => parseConfig(['--request-timeout=60'], {}), /not a duration/);
    assert.throws(() => parseConfig(['--min-request-timeout=-1'], {}), /non-negative integer/);
    assert.throws(() => parseConfig(['--min-request-timeout=1m'], {}), /non-negative integer/);
    assert.throws(() => parseConfig(['--max-requests-inflight=-1'], {}), /non-negative integer/);
    assert.throws(() => parseConfig(['--max-mutating-requests-inflight=2.5'], {}), /non-negative integer/);
  });

  it('reads --livez-grace-period, 0 included', () => {
    assert.equal(parseConfig([], {}).livezGracePeriodMs, 0);
    assert.equal(parseConfig(['--livez-grace-period=0'], {}).livezGracePeriodMs, 0);
    assert.equal(parseConfig(['--livez-grace-period=90s'], {}).livezGracePeriodMs, 90_000);
    assert.throws(() => parseConfig(['--livez-grace-period=soon'], {}), /not a duration/);
  });

  it('reads --feature-gates, repeated flags adding up, and keeps the warnings to log', () => {
    const c = parseConfig(
      [
        '--feature-gates=CBORServingAndStorage=true',
        '--feature-gates',
        'APIResponseCompression=false,KMSv1=true',
      ],
      {},
    );
    assert.equal(c.featureGates.enabled('CBORServingAndStorage'), true);
    assert.equal(c.featureGates.enabled('APIResponseCompression'), false);
    assert.deepEqual(c.warnings, [
      'Setting deprecated feature gate KMSv1=true. It will be removed in a future release.',
    ]);
    const defaults = parseConfig([], {});
    assert.equal(defaults.featureGates.enabled('CBORServingAndStorage'), false);
    assert.deepEqual(defaults.warnings, []);
  });

  it('reads --runtime-config against the built-in kinds', () => {
    const served = (argv: string[]) =>
      parseConfig(argv, {})
        .apiEnablement.served(builtinDefinitions)
        .map((d) => `${d.group}/${d.resource}`);
    assert.ok(served([]).includes('coordination.k8s.io/leases'));
    assert.ok(
      !served(['--runtime-config=coordination.k8s.io/v1=false']).includes('coordination.k8s.io/leases'),
    );
    assert.deepEqual(served(['--runtime-config=api/all=false,v1/namespaces']), ['/namespaces']);
  });

  it('reads --controllers, repeated flags adding up', () => {
    assert.deepEqual(parseConfig([], {}).controllers, []);
    assert.deepEqual(
      parseConfig(['--controllers=*,-namespace', '--controllers', 'tokencleaner'], {}).controllers,
      ['*,-namespace', 'tokencleaner'],
    );
  });

  it('reads --enable-bootstrap-token-auth as Go reads a bool flag: alone it is true', () => {
    assert.equal(parseConfig([], {}).enableBootstrapTokenAuth, false);
    const alone = parseConfig(['--enable-bootstrap-token-auth', '--secure-port=0'], {});
    assert.equal(alone.enableBootstrapTokenAuth, true);
    assert.equal(alone.securePort, 0);
    for (const [v, want] of [
      ['true', true],
      ['1', true],
      ['T', true],
      ['false', false],
      ['0', false],
      ['False', false],
    ] as const) {
      assert.equal(parseConfig([`--enable-bootstrap-token-auth=${v}`], {}).enableBootstrapTokenAuth, want, v);
    }
    assert.throws(
      () => parseConfig(['--enable-bootstrap-token-auth=yes'], {}),
      /--enable-bootstrap-token-auth: "yes" is not a boolean/,
    );
  });

  it('reads the authorization flags: modes in order, their files, the webhook cache', () => {
    const none = parseConfig([], {});
    assert.deepEqual(none.authorizationModes, []);
    assert.equal(none.authorizationWebhookVersion, 'v1beta1');
    assert.equal(none.authorizationWebhookCacheAuthorizedTtlMs, 300_000);
    assert.equal(none.authorizationWebhookCacheUnauthorizedTtlMs, 30_000);
    assert.equal(none.authorizationWebhookTimeoutMs, 30_000);
    const c = parseConfig(
      [
        '--authorization-mode=Node,RBAC',
        '--authorization-mode',
        'ABAC,Webhook',
        '--authorization-policy-file=p.jsonl',
        '--authorization-webhook-config-file=w.kubeconfig',
        '--authorization-webhook-version=v1',
        '--authorization-webhook-cache-authorized-ttl=1m',
        '--authorization-webhook-cache-unauthorized-ttl=0',
        '--authorization-webhook-timeout=3s',
      ],
      {},
    );
    assert.deepEqual(c.authorizationModes, ['Node', 'RBAC', 'ABAC', 'Webhook']);
    assert.equal(c.authorizationPolicyFile, 'p.jsonl');
    assert.equal(c.authorizationWebhookConfigFile, 'w.kubeconfig');
    assert.equal(c.authorizationWebhookVersion, 'v1');
    assert.equal(c.authorizationWebhookCacheAuthorizedTtlMs, 60_000);
    assert.equal(c.authorizationWebhookCacheUnauthorizedTtlMs, 0);
    assert.equal(c.authorizationWebhookTimeoutMs, 3000);
    assert.throws(() => parseConfig(['--authorization-webhook-timeout=31s'], {}), /at most 30s/);
    assert.equal(parseConfig(['--authorization-config=a.yaml'], {}).authorizationConfig, 'a.yaml');
  });

  for (const [argv, message] of [
    [['--authorization-mode=RBAC,Bogus'], /authorization-mode "Bogus" is not a valid mode/],
    [['--authorization-mode=RBAC,RBAC'], /"RBAC" has mode specified more than once/],
    [['--authorization-mode=RBAC,'], /--authorization-mode: empty value in "RBAC,"/],
    [['--authorization-mode=ABAC'], /ABAC's authorization policy file not passed/],
    [['--authorization-policy-file=p'], /cannot specify --authorization-policy-file without mode ABAC/],
    [['--authorization-mode=Webhook'], /Webhook's authorization config file not passed/],
    [
      ['--authorization-webhook-config-file=w'],
      /cannot specify --authorization-webhook-config-file without mode Webhook/,
    ],
    [
      ['--authorization-config=a.yaml', '--authorization-mode=RBAC'],
      /--authorization-config can not be specified when --authorization-mode flags are set/,
    ],
    [
      ['--authorization-config=a.yaml', '--authorization-webhook-timeout=2s'],
      /--authorization-config can not be specified when --authorization-webhook-timeout flags are set/,
    ],
    [['--authorization-webhook-version=v2'], /unsupported authorization webhook version "v2"/],
  ] as const) {
    it(`authorization: refuses ${argv.join(' ')}`, () => {
      assert.throws(() => parseConfig([...argv], {}), message);
    });
  }

  it('defaults to serve without a command', () => {
    assert.equal(parseConfig(['--secure-port=1'], {}).command, 'serve');
  });

  for (const [argv, message] of [
    [['serve', '--nope=1'], /unknown flag: --nope/],
    [['serve', '--secure-port=70000'], /not a valid port/],
    [['serve', '--secure-port'], /needs an argument/],
    [['frobnicate'], /unknown command/],
    [['serve', '--tls-cert-file=a'], /must be given together/],
    [['migrate'], /needs --database-url/],
    [['--feature-gates=NoSuchGate=true'], /unrecognized feature gate: NoSuchGate/],
    [['--feature-gates=StructuredAuthorizationConfiguration=false'], /locked to true/],
    [['--feature-gates=AuthorizeWithSelectors=false'], /requires AuthorizeWithSelectors/],
    [['--runtime-config=batch/v1=false'], /unknown api groups batch/],
    [
      ['--runtime-config=coordination.k8s.io/v1beta1'],
      /coordination.k8s.io\/v1beta1 that has not been registered/,
    ],
    [['--runtime-config=v1/replicationcontrollers=false'], /v1 has no resource "replicationcontrollers"/],
    [['--runtime-config=api/all=false'], /only api\/all=false/],
    [['--runtime-config=v1=false,api/v1=true'], /conflicting values for v1/],
    [['--runtime-config=batch/v1=perhaps'], /invalid value of batch\/v1: perhaps/],
    [['--controllers=*,nosuch'], /--controllers: unknown controller "nosuch"/],
    [['--service-account-issuer='], /^--service-account-issuer should not be an empty string$/],
    [
      ['--service-account-issuer=https://a', '--service-account-issuer=https://a'],
      /^--service-account-issuer "https:\/\/a" is already specified$/,
    ],
    [
      ['--service-account-issuer=https://exa mple.com'],
      /"https:\/\/exa mple.com" contained a ':' but was not a valid URL/,
    ],
    [
      ['--service-account-max-token-expiration=30m'],
      /^--service-account-max-token-expiration must be between 1 hour and 2\^32 seconds$/,
    ],
    [['--service-account-max-token-expiration=1200000h'], /between 1 hour and 2\^32 seconds/],
    [['--service-account-jwks-uri=http://x/jwks'], /^--service-account-jwks-uri requires https scheme/],
    [['--service-account-lookup=maybe'], /--service-account-lookup: "maybe" is not a boolean/],
    [
      ['--requestheader-allowed-names=front-proxy', '--requestheader-group-headers=X-Remote-Group'],
      /--requestheader-allowed-names, --requestheader-group-headers need --requestheader-client-ca-file/,
    ],
    [
      ['--requestheader-client-ca-file=ca.crt', '--requestheader-username-headers=X-Remote-User,'],
      /--requestheader-username-headers: empty value/,
    ],
    [
      ['--requestheader-client-ca-file=ca.crt', '--requestheader-allowed-names= '],
      /--requestheader-allowed-names: empty value/,
    ],
    [
      ['--requestheader-client-ca-file=ca.crt', '--requestheader-uid-headers=X-Remote-Uid'],
      /--requestheader-uid-headers requires the "RemoteRequestHeaderUID" feature/,
    ],
    [
      [
        '--requestheader-client-ca-file=ca.crt',
        '--requestheader-uid-headers=X-Uid',
        '--feature-gates=RemoteRequestHeaderUID=true',
      ],
      /--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header/,
    ],
  ] as const) {
    it(`rejects ${argv.join(' ')}`, () => {
      assert.throws(
        () => parseConfig([...argv], {}),
        (e: unknown) => e instanceof ConfigError && message.test(e.message),
      );
    });
  }

  it('service accounts: with no flag, issues as the in-cluster API name, for itself, with lookup', () => {
    const c = parseConfig([], {});
    assert.deepEqual(c.serviceAccountIssuers, ['https://kubernetes.default.svc.cluster.local']);
    assert.deepEqual(c.apiAudiences, c.serviceAccountIssuers);
    assert.deepEqual(c.serviceAccountKeyFiles, []);
    assert.equal(c.serviceAccountSigningKeyFile, undefined);
    assert.equal(c.serviceAccountLookup, true);
    assert.equal(c.serviceAccountMaxTokenExpirationS, 0);
  });

  it("service accounts: repeatable issuers and key files, kube's list and bool flags", () => {
    const c = parseConfig(
      [
        '--service-account-issuer=https://new',
        '--service-account-issuer',
        'https://old',
        '--service-account-key-file=/a.pub',
        '--service-account-key-file=/b,c.pem',
        '--service-account-signing-key-file=/a.key',
        '--service-account-max-token-expiration=24h',
        '--service-account-lookup',
      ],
      {},
    );
    assert.deepEqual(c.serviceAccountIssuers, ['https://new', 'https://old']);
    assert.deepEqual(c.apiAudiences, ['https://new', 'https://old'], 'the audiences default to every issuer');
    assert.deepEqual(c.serviceAccountKeyFiles, ['/a.pub', '/b,c.pem'], 'a file name may hold a comma');
    assert.equal(c.serviceAccountSigningKeyFile, '/a.key');
    assert.equal(c.serviceAccountMaxTokenExpirationS, 86_400);
    assert.equal(c.serviceAccountLookup, true);
    assert.equal(parseConfig(['--service-account-lookup=false'], {}).serviceAccountLookup, false);
    assert.deepEqual(parseConfig(['--api-audiences=a,b', '--api-audiences=c'], {}).apiAudiences, [
      'a',
      'b',
      'c',
    ]);
  });

  it('reads the client CA and the authenticating proxy flags, kube defaults for the headers', () => {
    const d = parseConfig([], {});
    assert.equal(d.clientCaFile, undefined);
    assert.equal(d.requestheaderClientCaFile, undefined);
    assert.deepEqual(d.requestheaderAllowedNames, []);
    assert.deepEqual(d.requestheaderUsernameHeaders, ['X-Remote-User']);
    assert.deepEqual(d.requestheaderUidHeaders, []);
    assert.deepEqual(d.requestheaderGroupHeaders, ['X-Remote-Group']);
    assert.deepEqual(d.requestheaderExtraHeadersPrefix, ['X-Remote-Extra-']);
    const c = parseConfig(
      [
        '--client-ca-file=/pki/clients.crt',
        '--requestheader-client-ca-file=/pki/proxy.crt',
        // a list flag: comma-separated, repeated flags add, the first replaces the default
        '--requestheader-allowed-names=front-proxy, aggregator',
        '--requestheader-allowed-names=other',
        '--requestheader-username-headers=X-Remote-User,X-Forwarded-User',
        '--feature-gates=RemoteRequestHeaderUID=true',
        '--requestheader-uid-headers=x-remote-uid',
      ],
      {},
    );
    assert.equal(c.clientCaFile, '/pki/clients.crt');
    assert.equal(c.requestheaderClientCaFile, '/pki/proxy.crt');
    assert.deepEqual(c.requestheaderAllowedNames, ['front-proxy', 'aggregator', 'other']);
    assert.deepEqual(c.requestheaderUsernameHeaders, ['X-Remote-User', 'X-Forwarded-User']);
    assert.deepEqual(c.requestheaderUidHeaders, ['x-remote-uid']);
    assert.deepEqual(c.warnings, []);
  });

  it('warns, as kube, when a header list leaves out the standard header', () => {
    const c = parseConfig(
      ['--requestheader-client-ca-file=ca.crt', '--requestheader-group-headers=X-Groups'],
      {},
    );
    assert.deepEqual(c.warnings, [
      '--requestheader-group-headers is set without specifying the standard X-Remote-Group header - API aggregation will not work',
    ]);
  });

  it('--builtin-apis=false serves CRDs and their groups only, and runs only the garbage collector by default', () => {
    const c = parseConfig(['--builtin-apis=false'], {});
    const kind = (group: string, resource: string) =>
      builtinDefinitions.find((d) => d.group === group && d.resource === resource)!;
    assert.equal(c.builtinApis, false);
    assert.equal(c.apiEnablement.enabled(kind('', 'configmaps'), 'v1'), false);
    assert.equal(c.apiEnablement.enabled(kind('rbac.authorization.k8s.io', 'roles'), 'v1'), false);
    assert.equal(
      c.apiEnablement.enabled({ ...kind('', 'configmaps'), group: 'apiextensions.k8s.io' }, 'v1'),
      true,
    );
    assert.deepEqual(c.controllers, ['garbagecollector']);
    assert.deepEqual(parseConfig(['--builtin-apis=false', '--controllers=*'], {}).controllers, ['*']);
    assert.equal(parseConfig([], {}).apiEnablement.enabled(kind('', 'configmaps'), 'v1'), true);
    // kube accepts the CRD group in --runtime-config too
    assert.doesNotThrow(() => parseConfig(['--runtime-config=apiextensions.k8s.io/v1=true'], {}));
  });

  it('reads the aggregation flags and refuses half-given pairs', () => {
    const c = parseConfig(
      [
        '--tls-san=widgets-api.pgkube.svc,10.0.0.1',
        '--tls-san',
        'other.svc',
        '--apiservice-kubeconfig=/k',
        '--apiservice-service=pgkube/widgets-api:8443',
      ],
      {},
    );
    assert.deepEqual(c.tlsSans, ['widgets-api.pgkube.svc', '10.0.0.1', 'other.svc']);
    assert.deepEqual(c.apiserviceService, { namespace: 'pgkube', name: 'widgets-api', port: 8443 });
    assert.equal(c.apiserviceGroupPriorityMinimum, 1000);
    assert.equal(c.apiserviceVersionPriority, 15);
    assert.equal(
      parseConfig(['--apiservice-service=a/b', '--apiservice-kubeconfig=k'], {}).apiserviceService?.port,
      443,
    );
    for (const [args, message] of [
      [['--apiservice-service=a/b'], /must be given together/],
      [['--apiservice-service=a', '--apiservice-kubeconfig=k'], /not NAMESPACE\/NAME/],
      [['--apiservice-service=a/b:0', '--apiservice-kubeconfig=k'], /between 1 and 65535/],
      [['--proxy-client-cert-file=c'], /must be given together/],
      [['--apiservice-version-priority=0'], /between 1 and 1000/],
      [['--apiservice-group-priority-minimum=20001'], /between 1 and 20000/],
    ] as const)
      assert.throws(
        () => parseConfig([...args], {}),
        (e: Error) => e instanceof ConfigError && message.test(e.message),
      );
  });
});
