/** matchConditions as kube's CELMatcher evaluates them over a SubjectAccessReview v1 spec. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkMatchCondition, compileMatchConditions } from './match-conditions.js';

const get = {
  resourceAttributes: { namespace: 'team', verb: 'get', version: 'v1', resource: 'configmaps', name: 'c' },
  user: 'alice',
  groups: ['dev', 'system:authenticated'],
  extra: { 'authentication.kubernetes.io/credential-id': ['X509SHA256=ab'] },
};
const healthz = { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'bob', groups: [] };

describe('match conditions', () => {
  it('all true: the webhook is asked; any false: skipped, even beside an error', () => {
    const m = compileMatchConditions([
      'has(request.resourceAttributes)',
      "request.resourceAttributes.verb in ['get', 'list']",
      "!('system:masters' in request.groups)",
    ])!;
    assert.deepEqual(m(get), { matches: true });
    assert.deepEqual(m({ ...get, resourceAttributes: { ...get.resourceAttributes, verb: 'delete' } }), {
      matches: false,
    });
    // the first condition is false: the second, which would fail on a missing key, is not the answer
    assert.deepEqual(m(healthz), { matches: false });
  });

  it('an error and no false: the failure policy decides (kube reports the expression)', () => {
    const m = compileMatchConditions(["request.resourceAttributes.verb == 'get'"])!;
    const outcome = m(healthz);
    assert.ok('error' in outcome);
    assert.match(outcome.error, /^expression 'request.resourceAttributes.verb == 'get'' resulted in error: /);
  });

  it('extra keys with dots are map keys', () => {
    const m = compileMatchConditions([
      "request.extra['authentication.kubernetes.io/credential-id'][0].startsWith('X509SHA256=')",
    ])!;
    assert.deepEqual(m(get), { matches: true });
  });

  it('no conditions: no matcher (every request asks the webhook)', () => {
    assert.equal(compileMatchConditions([]), undefined);
  });

  for (const [expression, problem] of [
    ['request.user ==', /Syntax error|compilation failed/],
    ["'a string'", /^must evaluate to bool$/],
    ['undeclared == 1', /undeclared reference to 'undeclared'/],
  ] as const) {
    it(`refuses ${expression}`, () => {
      assert.match(checkMatchCondition(expression) ?? 'passed', problem);
    });
  }

  it('accepts what kube accepts', () => {
    for (const e of ['true', 'has(request.resourceAttributes)', "request.user.startsWith('system:node:')"]) {
      assert.equal(checkMatchCondition(e), undefined, e);
    }
  });
});
