/** The AuthorizationConfiguration file as kube-apiserver v1.32 decodes, defaults and validates it. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseAuthorizationConfiguration, refusedReload } from './authorization-config.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pgkube-authz-config-'));
const kubeconfig = path.join(dir, 'webhook.kubeconfig');
writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\n');

/** a compiler that knows one bad expression */
const check = (expression: string) =>
  expression === 'nonsense(' ? 'compilation failed: Syntax error' : undefined;
const parse = (text: string) => parseAuthorizationConfiguration(text, '/etc/authz.yaml', check);

const webhook = (extra = '', name = 'example') => `
- type: Webhook
  name: ${name}
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1
    failurePolicy: Deny
    connectionInfo:
      type: KubeConfigFile
      kubeConfigFile: ${kubeconfig}
${extra}`;

const file = (authorizers: string, version = 'v1') =>
  `apiVersion: apiserver.config.k8s.io/${version}\nkind: AuthorizationConfiguration\nauthorizers:${authorizers}\n`;

describe('parseAuthorizationConfiguration', () => {
  it('reads every version kube 1.32 registers, defaulting the webhook TTLs', () => {
    for (const version of ['v1', 'v1beta1', 'v1alpha1']) {
      const c = parse(file(`${webhook()}- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n`, version));
      assert.deepEqual(c.authorizers, [
        {
          type: 'Webhook',
          name: 'example',
          webhook: {
            authorizedTtlMs: 300_000,
            unauthorizedTtlMs: 30_000,
            timeoutMs: 3000,
            subjectAccessReviewVersion: 'v1',
            matchConditionSubjectAccessReviewVersion: '',
            failurePolicy: 'Deny',
            connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
            matchConditions: [],
          },
        },
        { type: 'Node', name: 'node' },
        { type: 'RBAC', name: 'rbac' },
      ]);
    }
  });

  it('reads TTLs, match conditions and JSON', () => {
    const c = parse(
      JSON.stringify({
        apiVersion: 'apiserver.config.k8s.io/v1',
        kind: 'AuthorizationConfiguration',
        authorizers: [
          {
            type: 'Webhook',
            name: 'w',
            webhook: {
              authorizedTTL: '1m30s',
              unauthorizedTTL: '1s',
              timeout: '30s',
              subjectAccessReviewVersion: 'v1beta1',
              matchConditionSubjectAccessReviewVersion: 'v1',
              failurePolicy: 'NoOpinion',
              connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
              matchConditions: [{ expression: 'has(request.resourceAttributes)' }],
            },
          },
        ],
      }),
    );
    const w = c.authorizers[0].webhook!;
    assert.deepEqual(
      [w.authorizedTtlMs, w.unauthorizedTtlMs, w.timeoutMs, w.failurePolicy, w.matchConditions],
      [90_000, 1000, 30_000, 'NoOpinion', [{ expression: 'has(request.resourceAttributes)' }]],
    );
  });

  // every message as kube-apiserver v1.32 words it
  for (const [what, text, message] of [
    [
      'an empty file',
      '',
      /failed to load authorization configuration from file "\/etc\/authz.yaml": empty config data/,
    ],
    [
      'another kind',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n',
      /no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io\/v1"/,
    ],
    [
      'an unknown field',
      file(`\n- type: RBAC\n  name: rbac\n  extra: 1\n`),
      /strict decoding error: unknown field "authorizers\[0\].extra"/,
    ],
    [
      'a field given twice',
      file(`\n- type: RBAC\n  type: RBAC\n  name: rbac\n`),
      /failed to load .*Map keys must be unique/,
    ],
    [
      'a wrong type',
      file(`\n- type: [RBAC]\n  name: rbac\n`),
      /json: cannot unmarshal array into Go struct field AuthorizerConfiguration.authorizers.type of type string/,
    ],
    [
      'no authorizers',
      file(' []'),
      /invalid authorization configuration: authorizers: Required value: at least one authorization mode must be defined/,
    ],
    ['no type', file(`\n- name: x\n`), /authorizers\[0\].type: Required value$/],
    [
      'an unknown type',
      file(`\n- type: Magic\n  name: magic\n`),
      /authorizers\[0\].type: Unsupported value: "Magic": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"/,
    ],
    [
      'RBAC twice',
      file(`\n- type: RBAC\n  name: rbac\n- type: RBAC\n  name: rbac2\n`),
      /authorizers\[1\].type: Duplicate value: "RBAC"/,
    ],
    [
      'a name twice',
      file(`${webhook('', 'x')}${webhook('', 'x')}`),
      /authorizers\[1\].name: Duplicate value: "x"/,
    ],
    ['no name', file(`\n- type: RBAC\n`), /authorizers\[0\].name: Required value/],
    [
      'a bad name',
      file(webhook('', 'Not_A_Name')),
      /authorizers\[0\].name: Invalid value: "Not_A_Name": authorizer name is invalid: a lowercase RFC 1123 subdomain/,
    ],
    [
      'a built-in named otherwise',
      file(`\n- type: RBAC\n  name: roles\n`),
      /^expected name rbac for authorizer RBAC instead of roles$/,
    ],
    [
      'a webhook without its section',
      file(`\n- type: Webhook\n  name: w\n`),
      /authorizers\[0\].webhook: Required value: required when type=Webhook/,
    ],
    [
      'a webhook section on RBAC',
      file(`\n- type: RBAC\n  name: rbac\n  webhook: {timeout: 1s}\n`),
      /authorizers\[0\].webhook: Invalid value: "non-null": may only be specified when type=Webhook/,
    ],
    [
      'a timeout over 30s',
      file(webhook().replace('timeout: 3s', 'timeout: 31s')),
      /authorizers\[0\].webhook.timeout: Invalid value: "31s": must be > 0s and <= 30s/,
    ],
    [
      'no timeout',
      file(webhook().replace('timeout: 3s', 'timeout: 0s')),
      /authorizers\[0\].webhook.timeout: Required value/,
    ],
    [
      'a negative TTL',
      file(webhook('    authorizedTTL: -1m\n')),
      /authorizers\[0\].webhook.authorizedTTL: Invalid value: "-1m0s": must be > 0s/,
    ],
    [
      'no SAR version',
      file(webhook().replace('subjectAccessReviewVersion: v1', 'subjectAccessReviewVersion: ""')),
      /webhook.subjectAccessReviewVersion: Required value/,
    ],
    [
      'a SAR version v2',
      file(webhook().replace('subjectAccessReviewVersion: v1', 'subjectAccessReviewVersion: v2')),
      /webhook.subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"/,
    ],
    [
      'conditions without their version',
      file(webhook("    matchConditions:\n    - expression: 'true'\n")),
      /webhook.matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified/,
    ],
    [
      'no failure policy',
      file(webhook().replace('failurePolicy: Deny', 'failurePolicy: ""')),
      /webhook.failurePolicy: Required value/,
    ],
    [
      'a failure policy Fail',
      file(webhook().replace('failurePolicy: Deny', 'failurePolicy: Fail')),
      /webhook.failurePolicy: Unsupported value: "Fail": supported values: "NoOpinion", "Deny"/,
    ],
    [
      'InClusterConfig',
      file(webhook().replace(/type: KubeConfigFile\n\s+kubeConfigFile: \S+/, 'type: InClusterConfig')),
      /webhook.connectionInfo.type: Invalid value: "InClusterConfig"/,
    ],
    [
      'a relative kubeconfig',
      file(webhook().replace(kubeconfig, 'webhook.kubeconfig')),
      /webhook.connectionInfo.kubeConfigFile: Invalid value: "webhook.kubeconfig": must be an absolute path/,
    ],
    [
      'a missing kubeconfig',
      file(webhook().replace(kubeconfig, '/nonexistent/k')),
      /webhook.connectionInfo.kubeConfigFile: Invalid value: "\/nonexistent\/k": error loading file: stat \/nonexistent\/k: no such file or directory/,
    ],
    [
      'a directory as kubeconfig',
      file(webhook().replace(kubeconfig, dir)),
      /webhook.connectionInfo.kubeConfigFile: Invalid value: ".*": must be a regular file/,
    ],
    [
      'an empty condition',
      file(
        webhook(
          "    matchConditionSubjectAccessReviewVersion: v1\n    matchConditions:\n    - expression: ' '\n",
        ),
      ),
      /webhook.matchConditions\[0\].expression: Required value/,
    ],
    [
      'a repeated condition',
      file(
        webhook(
          "    matchConditionSubjectAccessReviewVersion: v1\n    matchConditions:\n    - expression: 'true'\n    - expression: 'true'\n",
        ),
      ),
      /webhook.matchConditions\[1\].expression: Duplicate value: "true"/,
    ],
    [
      'a condition that does not compile',
      file(
        webhook(
          "    matchConditionSubjectAccessReviewVersion: v1\n    matchConditions:\n    - expression: 'nonsense('\n",
        ),
      ),
      /webhook.matchConditions\[0\].expression: Invalid value: "nonsense\(": compilation failed: Syntax error/,
    ],
    [
      '65 conditions',
      file(
        webhook(
          `    matchConditionSubjectAccessReviewVersion: v1\n    matchConditions:\n${Array.from({ length: 65 }, (_, i) => `    - expression: 'true || ${i} > 0'\n`).join('')}`,
        ),
      ),
      /webhook.matchConditions: Too many: 65: must have at most 64 items/,
    ],
    [
      'several problems at once',
      file(`\n- type: RBAC\n- type: Magic\n`),
      /^invalid authorization configuration: \[authorizers\[0\].name: Required value, authorizers\[1\].type: Unsupported value: "Magic"/,
    ],
  ] as const) {
    it(`refuses ${what}`, () => {
      assert.throws(
        () => parse(text),
        (e: Error) => {
          assert.match(e.message, message);
          return true;
        },
      );
    });
  }
});

describe('refusedReload', () => {
  const base = parse(file(`${webhook()}- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n`));
  it('allows webhooks to change, come and go, and the others to be reordered', () => {
    assert.equal(
      refusedReload(
        base,
        parse(file(`\n- type: RBAC\n  name: rbac\n- type: Node\n  name: node\n${webhook('', 'other')}`)),
      ),
      undefined,
    );
    assert.equal(
      refusedReload(base, parse(file(`\n- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n`))),
      undefined,
    );
  });
  it('refuses adding or removing a non-webhook authorizer', () => {
    assert.match(
      refusedReload(base, parse(file(`\n- type: RBAC\n  name: rbac\n`)))!,
      /cannot be added or removed/,
    );
    assert.match(
      refusedReload(
        base,
        parse(
          file(
            `\n- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n- type: AlwaysAllow\n  name: alwaysallow\n`,
          ),
        ),
      )!,
      /cannot be added or removed/,
    );
  });
});
