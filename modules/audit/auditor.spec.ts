/**
 * The Auditor's events as the sinks get them: what each request's events carry when requests from different
 * users and clients interleave (the auditor reuses the last user's and source IPs' JSON), and the annotations
 * merged as kube merges them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo, type UserInfo } from '../api/index.js';
import { Auditor, type AuditedRequest } from './auditor.js';
import { sourceIPs } from './event.js';
import { parsePolicy, PolicyEvaluator } from './policy.js';
import { eventJson, type AuditSink } from './sinks.js';

const alice: UserInfo = { name: 'alice', uid: '', groups: ['dev', 'system:authenticated'] };
const bob: UserInfo = { name: 'bob', uid: 'b-1', groups: ['system:authenticated'], extra: { scope: ['x'] } };

function auditor(): { auditor: Auditor; events: Record<string, unknown>[] } {
  const events: Record<string, unknown>[] = [];
  const sink: AuditSink = { process: (e) => events.push(JSON.parse(eventJson(e))) };
  const { policy } = parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n');
  return { auditor: new Auditor(new PolicyEvaluator(policy), [sink]), events };
}

function request(user: UserInfo, userAgent: string | undefined, sourceIPs: string[]): AuditedRequest {
  return {
    auditID: `id-${user.name}-${userAgent}-${sourceIPs.join()}`,
    receivedMicros: Date.now() * 1000,
    requestURI: '/api/v1/namespaces/default/configmaps',
    info: parseRequestInfo('POST', '/api/v1/namespaces/default/configmaps', {}),
    user,
    userAgent,
    sourceIPs,
  };
}

describe('audit events', () => {
  it('each request carries its own user, User-Agent and source IPs, however requests interleave', () => {
    const { auditor: a, events } = auditor();
    const requests = [
      request(alice, 'kubectl/v1.32', ['127.0.0.1']),
      request(alice, 'kubectl/v1.32', ['127.0.0.1']),
      request(bob, 'kubectl/v1.32', ['127.0.0.1']),
      request(bob, 'helm/3', ['127.0.0.1']),
      request(bob, 'helm/3', ['10.0.0.1', '127.0.0.1']),
      request(bob, 'helm/3', ['10.0.0.2', '127.0.0.1']),
      request(bob, undefined, []),
      request(alice, 'kubectl/v1.32', ['127.0.0.1']),
    ];
    for (const r of requests) a.begin(r)!.completed(201);
    assert.equal(events.length, requests.length * 2);
    requests.forEach((r, i) => {
      for (const e of events.slice(2 * i, 2 * i + 2)) {
        assert.equal(e.auditID, r.auditID);
        const expectedUser: Record<string, unknown> = { username: r.user!.name, groups: r.user!.groups };
        if (r.user!.uid) expectedUser.uid = r.user!.uid;
        if (r.user!.extra) expectedUser.extra = r.user!.extra;
        assert.deepEqual(e.user, expectedUser);
        assert.equal(e.userAgent, r.userAgent);
        assert.deepEqual(e.sourceIPs, r.sourceIPs.length ? r.sourceIPs : undefined);
      }
    });
  });

  it('annotations: the request context`s, the audit step`s over them, keys sorted (a Go map); none: no field', () => {
    const { auditor: a, events } = auditor();
    const audit = a.begin(request(alice, 'k', ['127.0.0.1']))!;
    audit.annotateFrom({
      'mutation.webhook.admission.k8s.io/round_0_index_0': '{}',
      'authorization.k8s.io/reason': 'early',
    });
    audit.authorized({ decision: 'allow', reason: 'RBAC: "quoted" \\ reason' });
    audit.completed(201);
    assert.equal(events[0].annotations, undefined);
    assert.deepEqual(Object.entries(events[1].annotations as object), [
      ['authorization.k8s.io/decision', 'allow'],
      ['authorization.k8s.io/reason', 'RBAC: "quoted" \\ reason'],
      ['mutation.webhook.admission.k8s.io/round_0_index_0', '{}'],
    ]);
    const plain = a.begin(request(alice, 'k', ['127.0.0.1']))!;
    plain.completed(200);
    assert.equal(events[3].annotations, undefined);
  });

  it('annotations of interleaved requests: each its own decision and reason', () => {
    const { auditor: a, events } = auditor();
    const verdicts = [
      { decision: 'allow', reason: 'one' },
      { decision: 'allow', reason: 'two' },
      { decision: 'forbid', reason: 'two' },
      { decision: 'allow', reason: 'two' },
      { decision: 'allow', reason: 'one' },
    ];
    for (const v of verdicts) {
      const audit = a.begin(request(alice, 'k', ['127.0.0.1']))!;
      audit.annotateFrom({});
      audit.authorized(v);
      audit.completed(201);
    }
    assert.deepEqual(
      events.filter((e) => e.stage === 'ResponseComplete').map((e) => e.annotations),
      verdicts.map((v) => ({
        'authorization.k8s.io/decision': v.decision,
        'authorization.k8s.io/reason': v.reason,
      })),
    );
  });

  it('source IPs: proxies` headers, then the peer; requests from different peers, interleaved, each their own', () => {
    const cases: [string | undefined, string | undefined, string | undefined, string[]][] = [
      [undefined, undefined, '::ffff:127.0.0.1', ['127.0.0.1']],
      [undefined, undefined, '::1', ['::1']],
      [undefined, undefined, '::ffff:127.0.0.1', ['127.0.0.1']],
      ['10.0.0.1, bogus, 10.0.0.2', undefined, '127.0.0.1', ['10.0.0.1', '10.0.0.2', '127.0.0.1']],
      [undefined, '10.0.0.9', '127.0.0.1', ['10.0.0.9', '127.0.0.1']],
      ['10.0.0.1', undefined, '10.0.0.1', ['10.0.0.1']],
      [undefined, undefined, undefined, []],
      [undefined, undefined, '::1', ['::1']],
    ];
    for (const [forwarded, real, peer, expected] of cases)
      assert.deepEqual(sourceIPs(forwarded, real, peer), expected, `${forwarded} ${real} ${peer}`);
  });
});
