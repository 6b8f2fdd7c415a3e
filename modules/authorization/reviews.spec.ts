/**
 * The access reviews' answers, table-driven over a real chain: what the authorizers are asked (kube's
 * ResourceAttributesFrom: an empty version is every version; selectors under AuthorizeWithSelectors), how a
 * verdict is reported (allowed, denied only on a deny, reason, evaluationError), and kube's refusals.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, parseRequestInfo, requestContext, type KubeObject, type UserInfo } from '../api/index.js';
import type { Attributes, Authorizer, Verdict } from './authorizer.js';
import { AuthorizerChain } from './chain.js';
import {
  localSubjectAccessReview,
  reviewAttributes,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
  subjectAccessReview,
} from './reviews.js';

/** answers every request with `verdict`, remembering what it was asked */
class Recorder implements Authorizer {
  asked: Attributes[] = [];
  constructor(private readonly verdict: Verdict) {}
  async authorize(a: Attributes): Promise<Verdict> {
    this.asked.push(a);
    return this.verdict;
  }
}

const alice: UserInfo = { name: 'alice', uid: 'u', groups: ['system:authenticated'] };
const ctx = (path = '/apis/authorization.k8s.io/v1/subjectaccessreviews') =>
  requestContext(parseRequestInfo('POST', path, {}), alice);
const review = (kind: string, spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'authorization.k8s.io/v1', kind, metadata: {}, spec }) as unknown as KubeObject;

describe('reviewAttributes', () => {
  it('resource attributes as kube reads them: an empty version asks about all (`*`)', () => {
    const a = reviewAttributes(
      alice,
      { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'n' } },
      true,
    );
    assert.deepEqual(a, {
      user: alice,
      verb: 'get',
      isResourceRequest: true,
      path: '',
      namespace: 'n',
      apiGroup: '',
      apiVersion: '*',
      resource: 'pods',
      subresource: '',
      name: '',
    });
  });

  it('selectors: a raw selector or requirements; unusable ones (several values, Exists on fields) are left out', () => {
    const attrs = (fieldSelector: unknown, labelSelector: unknown, gate = true) =>
      reviewAttributes(alice, { resourceAttributes: { verb: 'list', fieldSelector, labelSelector } }, gate);
    const raw = attrs({ rawSelector: 'a=b,c!=d' }, { rawSelector: 'x in (1,2),!y' });
    assert.deepEqual(raw.fieldSelector, [
      { field: 'a', operator: '=', value: 'b' },
      { field: 'c', operator: '!=', value: 'd' },
    ]);
    assert.deepEqual(
      raw.labelSelector?.map((r) => [r.key, r.operator, r.values]),
      [
        ['x', 'in', ['1', '2']],
        ['y', '!', []],
      ],
    );
    const reqs = attrs(
      { requirements: [{ key: 'a', operator: 'NotIn', values: ['b'] }] },
      { requirements: [{ key: 'x', operator: 'Exists' }] },
    );
    assert.deepEqual(reqs.fieldSelector, [{ field: 'a', operator: '!=', value: 'b' }]);
    assert.deepEqual(reqs.labelSelector, [{ key: 'x', operator: 'exists', values: [] }]);
    assert.equal(
      attrs({ requirements: [{ key: 'a', operator: 'In', values: ['b', 'c'] }] }, undefined).fieldSelector,
      undefined,
    );
    assert.equal(
      attrs({ requirements: [{ key: 'a', operator: 'Exists' }] }, undefined).fieldSelector,
      undefined,
    );
    assert.equal(attrs({ rawSelector: 'a=b' }, { rawSelector: 'x' }, false).fieldSelector, undefined);
  });

  it('non-resource attributes: path and verb only', () => {
    const a = reviewAttributes(alice, { nonResourceAttributes: { path: '/healthz', verb: 'get' } }, true);
    assert.equal(a.isResourceRequest, false);
    assert.equal(a.path, '/healthz');
    assert.equal(a.verb, 'get');
  });
});

describe('access review answers', () => {
  const verdicts: [string, Verdict, Record<string, unknown>][] = [
    ['allow', { decision: 'allow', reason: 'ok' }, { allowed: true, reason: 'ok' }],
    ['deny', { decision: 'deny', reason: 'banned' }, { allowed: false, denied: true, reason: 'banned' }],
    ['no opinion', { decision: 'noOpinion' }, { allowed: false }],
    [
      'no opinion, with an error',
      { decision: 'noOpinion', reason: 'r', evaluationError: 'down' },
      { allowed: false, reason: 'r', evaluationError: 'down' },
    ],
  ];
  for (const [name, verdict, status] of verdicts)
    it(`${name}: ${JSON.stringify(status)}`, async () => {
      const chain = new AuthorizerChain([new Recorder(verdict)]);
      const sar = await subjectAccessReview(chain, { selectors: true })(
        ctx(),
        review('SubjectAccessReview', { user: 'bob', nonResourceAttributes: { path: '/x', verb: 'get' } }),
      );
      assert.deepEqual(sar.status, status);
      const self = await selfSubjectAccessReview(chain, { selectors: true })(
        ctx(),
        review('SelfSubjectAccessReview', { nonResourceAttributes: { path: '/x', verb: 'get' } }),
      );
      assert.deepEqual(self.status, status);
    });

  it("SubjectAccessReview asks about the spec's user exactly (no groups added); the self review about the caller", async () => {
    const r = new Recorder({ decision: 'allow' });
    const chain = new AuthorizerChain([r]);
    await subjectAccessReview(chain, { selectors: true })(
      ctx(),
      review('SubjectAccessReview', {
        user: 'bob',
        uid: 'b',
        groups: ['g'],
        extra: { k: ['v'] },
        resourceAttributes: { verb: 'get' },
      }),
    );
    assert.deepEqual(r.asked[0].user, { name: 'bob', uid: 'b', groups: ['g'], extra: { k: ['v'] } });
    await selfSubjectAccessReview(chain, { selectors: true })(
      ctx(),
      review('SelfSubjectAccessReview', { resourceAttributes: { verb: 'get' } }),
    );
    assert.equal(r.asked[1].user, alice);
  });

  it('LocalSubjectAccessReview: the namespace of the URL, matched by the spec', async () => {
    const chain = new AuthorizerChain([new Recorder({ decision: 'allow' })]);
    const local = localSubjectAccessReview(chain, { selectors: true });
    const path = '/apis/authorization.k8s.io/v1/namespaces/team/localsubjectaccessreviews';
    const ok = await local(
      ctx(path),
      review('LocalSubjectAccessReview', {
        user: 'a',
        resourceAttributes: { namespace: 'team', verb: 'get' },
      }),
    );
    assert.deepEqual(ok.status, { allowed: true });
    await assert.rejects(
      local(
        ctx(path),
        review('LocalSubjectAccessReview', { user: 'a', resourceAttributes: { verb: 'get' } }),
      ),
      (e: ApiError) =>
        e.code === 400 && e.message === 'spec.resourceAttributes.namespace must match namespace: team',
    );
  });

  it('SelfSubjectRulesReview: rules with empty lists left out, as kube writes them', async () => {
    const chain = new AuthorizerChain([
      {
        authorize: async () => ({ decision: 'noOpinion' }),
        rulesFor: async () => ({
          resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
          incomplete: true,
          evaluationError: 'partial',
        }),
      },
    ]);
    const r = await selfSubjectRulesReview(chain)(
      ctx(),
      review('SelfSubjectRulesReview', { namespace: 'n' }),
    );
    assert.deepEqual(r, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: { creationTimestamp: null },
      spec: {},
      status: {
        resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
        incomplete: true,
        evaluationError: 'partial',
      },
    });
  });
});

describe('access review refusals (422)', () => {
  const chain = new AuthorizerChain([new Recorder({ decision: 'allow' })]);
  const list = (selectors: Record<string, unknown>) => ({
    user: 'a',
    resourceAttributes: { verb: 'list', ...selectors },
  });
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'a field requirement without a key',
      list({ fieldSelector: { requirements: [{ operator: 'In', values: ['x'] }] } }),
      'spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified',
    ],
    [
      'a label requirement In without values',
      list({ labelSelector: { requirements: [{ key: 'app', operator: 'In' }] } }),
      "spec.resourceAttributes.labelSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
    [
      'a label requirement Exists with values',
      list({ labelSelector: { requirements: [{ key: 'app', operator: 'Exists', values: ['x'] }] } }),
      "spec.resourceAttributes.labelSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ],
    [
      'a label requirement with a bad key (an unknown operator passes)',
      list({ labelSelector: { requirements: [{ key: 'a b', operator: 'Later' }] } }),
      'spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "a b": name part must consist of alphanumeric characters',
    ],
  ];
  for (const [name, spec, message] of cases)
    it(name, async () => {
      await assert.rejects(
        subjectAccessReview(chain, { selectors: true })(ctx(), review('SubjectAccessReview', spec)),
        (e: ApiError) => {
          assert.equal(e.code, 422);
          const prefix = `SubjectAccessReview.authorization.k8s.io "" is invalid: ${message}`;
          assert.ok(e.message.startsWith(prefix), e.message);
          return true;
        },
      );
    });

  it('an unknown label operator with values, and a well-formed selector, pass', async () => {
    const ok = await subjectAccessReview(chain, { selectors: true })(
      ctx(),
      review(
        'SubjectAccessReview',
        list({
          fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n'] }] },
          labelSelector: { requirements: [{ key: 'app', operator: 'Later', values: ['1'] }] },
        }),
      ),
    );
    assert.deepEqual(ok.status, { allowed: true });
  });
});
