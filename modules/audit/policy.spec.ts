/**
 * kube's audit policy, table-driven: which level, stages and omitManagedFields each request gets (first matching
 * rule wins; users, groups, verbs, resources with subresources and wildcards, resourceNames, namespaces,
 * nonResourceURLs; policy-level omitStages joined to each rule's; a rule's omitManagedFields over the policy's;
 * no match: None), and the file's validation with kube's messages.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo, type UserInfo } from '../api/index.js';
import { auditAttributes, parsePolicy, PolicyEvaluator, type AuditAttributes } from './policy.js';

const alice: UserInfo = { name: 'alice', uid: '', groups: ['dev', 'system:authenticated'] };
const admin: UserInfo = { name: 'admin', uid: '', groups: ['system:masters', 'system:authenticated'] };
const node: UserInfo = { name: 'system:node:n1', uid: '', groups: ['system:nodes', 'system:authenticated'] };

function request(method: string, path: string, user: UserInfo | null = alice, query = {}): AuditAttributes {
  return auditAttributes(parseRequestInfo(method, path, query), user ?? undefined);
}

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
  - level: None
    users: ["system:kube-proxy"]
  - level: None
    userGroups: ["system:nodes"]
    verbs: ["get", "watch"]
  - level: RequestResponse
    omitManagedFields: false
    resources:
      - group: ""
        resources: ["configmaps"]
        resourceNames: ["precious"]
  - level: Metadata
    resources:
      - group: ""
        resources: ["secrets", "pods/log", "*/status"]
  - level: Request
    omitStages: [ResponseStarted]
    resources:
      - group: "apps"
        resources: ["deployments/*"]
  - level: Request
    namespaces: ["kube-system"]
  - level: None
    nonResourceURLs: ["/healthz*", "/version"]
  - level: RequestResponse
    verbs: ["delete", "deletecollection"]
    resources:
      - group: "coordination.k8s.io"
        resources: ["*"]
  - level: Metadata
    nonResourceURLs: ["*"]
  - level: Request
    users: ["alice"]
    resources:
      - group: ""
`;

describe('audit policy: evaluation', () => {
  const evaluator = new PolicyEvaluator(parsePolicy(POLICY).policy);
  const cases: [string, AuditAttributes, string, string[], boolean][] = [
    [
      'a user listed: None',
      request('GET', '/api/v1/pods', { name: 'system:kube-proxy', uid: '', groups: [] }),
      'None',
      ['RequestReceived'],
      true,
    ],
    [
      'a group and verb listed: None',
      request('GET', '/api/v1/namespaces/a/pods/p', node),
      'None',
      ['RequestReceived'],
      true,
    ],
    [
      'the group, another verb: the next rules',
      request('PATCH', '/api/v1/namespaces/a/secrets/s', node),
      'Metadata',
      ['RequestReceived'],
      true,
    ],
    [
      'resourceNames: the named object',
      request('PUT', '/api/v1/namespaces/a/configmaps/precious'),
      'RequestResponse',
      ['RequestReceived'],
      false,
    ],
    [
      'resourceNames: another name does not match',
      request('PUT', '/api/v1/namespaces/a/configmaps/other'),
      'Request',
      ['RequestReceived'],
      true,
    ],
    [
      'resourceNames: a list has no name',
      request('GET', '/api/v1/namespaces/a/configmaps'),
      'Request',
      ['RequestReceived'],
      true,
    ],
    ['a resource', request('GET', '/api/v1/namespaces/a/secrets/s'), 'Metadata', ['RequestReceived'], true],
    [
      'a subresource named: pods/log',
      request('GET', '/api/v1/namespaces/a/pods/p/log'),
      'Metadata',
      ['RequestReceived'],
      true,
    ],
    [
      'the resource of a listed subresource does not match',
      request('GET', '/api/v1/namespaces/a/pods/p'),
      'Request',
      ['RequestReceived'],
      true,
    ],
    [
      "*/status: any resource's status",
      request('PUT', '/api/v1/nodes/n1/status'),
      'Metadata',
      ['RequestReceived'],
      true,
    ],
    [
      'deployments/*: the resource itself',
      request('GET', '/apis/apps/v1/namespaces/a/deployments/d', admin),
      'Request',
      ['RequestReceived', 'ResponseStarted'],
      true,
    ],
    [
      'deployments/*: its subresources',
      request('PUT', '/apis/apps/v1/namespaces/a/deployments/d/scale', admin),
      'Request',
      ['RequestReceived', 'ResponseStarted'],
      true,
    ],
    [
      'another group does not match',
      request('GET', '/apis/batch/v1/namespaces/a/jobs/j', admin),
      'None',
      ['RequestReceived'],
      true,
    ],
    [
      'namespaces',
      request('GET', '/apis/batch/v1/namespaces/kube-system/jobs', admin),
      'Request',
      ['RequestReceived'],
      true,
    ],
    [
      'a cluster-scoped object is in namespace ""',
      request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles', admin),
      'None',
      ['RequestReceived'],
      true,
    ],
    ['nonResourceURLs: a prefix with *', request('GET', '/healthz/ping'), 'None', ['RequestReceived'], true],
    ['nonResourceURLs: exact', request('GET', '/version'), 'None', ['RequestReceived'], true],
    [
      'nonResourceURLs: exact does not match a longer path',
      request('GET', '/version/x'),
      'Metadata',
      ['RequestReceived'],
      true,
    ],
    [
      'nonResourceURLs: * matches any path',
      request('GET', '/openapi/v2'),
      'Metadata',
      ['RequestReceived'],
      true,
    ],
    [
      'verbs and a resource wildcard',
      request('DELETE', '/apis/coordination.k8s.io/v1/namespaces/a/leases/l', admin),
      'RequestResponse',
      ['RequestReceived'],
      true,
    ],
    [
      '* covers subresources too',
      request('DELETE', '/apis/coordination.k8s.io/v1/namespaces/a/leases/l/status', admin),
      'RequestResponse',
      ['RequestReceived'],
      true,
    ],
    [
      'a resource rule never matches a non-resource request',
      request('GET', '/apis'),
      'Metadata',
      ['RequestReceived'],
      true,
    ],
    [
      'a group with no resources: every resource of the group',
      request('GET', '/api/v1/namespaces/a/services'),
      'Request',
      ['RequestReceived'],
      true,
    ],
    [
      'no rule matches: None, the policy stages',
      request('GET', '/api/v1/namespaces/a/services', admin),
      'None',
      ['RequestReceived'],
      true,
    ],
    [
      'failed authentication (no user): user rules never match',
      request('GET', '/api/v1/namespaces/a/services', null),
      'None',
      ['RequestReceived'],
      true,
    ],
  ];
  for (const [name, attrs, level, stages, omitManagedFields] of cases) {
    it(name, () => {
      const got = evaluator.evaluate(attrs);
      assert.equal(got.level, level);
      assert.deepEqual([...got.omitStages].sort(), [...stages].sort());
      assert.equal(got.omitManagedFields, omitManagedFields);
    });
  }

  it('no policy-level settings: no stage omitted, managedFields kept', () => {
    const { policy } = parsePolicy(
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Metadata"}]}',
    );
    const got = new PolicyEvaluator(policy).evaluate(request('GET', '/api'));
    assert.deepEqual(got, { level: 'Metadata', omitStages: [], omitManagedFields: false });
  });
});

describe('audit policy: the file', () => {
  const head = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n';
  const errors: [string, string, string | RegExp][] = [
    ['no rules', head + 'rules: []\n', 'loaded illegal policy with 0 rules'],
    ['a level missing', head + 'rules: [{verbs: [get]}]\n', 'rules[0].level: Required value'],
    [
      'an unknown level',
      head + 'rules: [{level: Everything}]\n',
      'rules[0].level: Unsupported value: "Everything": supported values: "Metadata", "None", "Request", "RequestResponse"',
    ],
    [
      'a URL without /',
      head + 'rules: [{level: None, nonResourceURLs: ["healthz"]}]\n',
      `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
    ],
    [
      'a * inside a URL',
      head + 'rules: [{level: None, nonResourceURLs: ["/a*/b"]}]\n',
      `rules[0].nonResourceURLs[0]: Invalid value: "/a*/b": non-resource URL wildcards '*' must be the final character of the rule`,
    ],
    [
      'resources and URLs in one rule',
      head + 'rules: [{level: None, namespaces: [a], nonResourceURLs: ["/x"]}]\n',
      'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
    ],
    [
      'resourceNames without resources',
      head + 'rules: [{level: None, resources: [{group: "", resourceNames: [x]}]}]\n',
      'rules[0].resources.resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource',
    ],
    [
      'a group with a version',
      head + 'rules: [{level: None, resources: [{group: "rbac.authorization.k8s.io/v1"}]}]\n',
      /^rules\[0\]\.resources\.group: Invalid value: "rbac\.authorization\.k8s\.io\/v1": a lowercase RFC 1123 subdomain/,
    ],
    [
      'an unknown stage, rule and policy level',
      head + 'omitStages: [Done]\nrules: [{level: None, omitStages: [Later]}]\n',
      '[omitStages[0]: Invalid value: "Done": allowed stages are Panic,RequestReceived,ResponseComplete,ResponseStarted, rules[0].omitStages[0]: Invalid value: "Later": allowed stages are Panic,RequestReceived,ResponseComplete,ResponseStarted]',
    ],
    [
      'another version',
      'apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n',
      'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1"',
    ],
    [
      'no kind',
      'apiVersion: audit.k8s.io/v1\nrules: [{level: None}]\n',
      `failed decoding: Object 'Kind' is missing`,
    ],
    ['a field given twice', head + 'rules: []\nrules: [{level: None}]\n', /^failed decoding: /],
  ];
  for (const [name, text, message] of errors) {
    it(`refused: ${name}`, () => {
      assert.throws(
        () => parsePolicy(text),
        (e: Error) => {
          if (typeof message === 'string') assert.equal(e.message, message);
          else assert.match(e.message, message);
          return true;
        },
      );
    });
  }

  it('an unknown field is decoded leniently, with a warning (as kube falls back)', () => {
    const { policy, warnings } = parsePolicy(head + 'rules: [{level: Metadata, verb: [get]}]\n');
    assert.deepEqual(policy.rules, [{ level: 'Metadata' }]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /unknown field "rules\[0\]\.verb"/);
  });

  it('JSON works as YAML does', () => {
    const { policy } = parsePolicy(
      JSON.stringify({
        apiVersion: 'audit.k8s.io/v1',
        kind: 'Policy',
        rules: [{ level: 'Request', verbs: ['create'] }],
      }),
    );
    assert.deepEqual(policy.rules, [{ level: 'Request', verbs: ['create'] }]);
  });
});
