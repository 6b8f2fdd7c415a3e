/** kube's Node authorizer for the kinds served: own Lease, graph-checked objects, the static node rules. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo, type UserInfo } from '../api/index.js';
import { requestAttributes } from './authorizer.js';
import { NodeAuthorizer } from './node.js';

const node1: UserInfo = {
  name: 'system:node:node-1',
  uid: '',
  groups: ['system:nodes', 'system:authenticated'],
};
const notInGroup: UserInfo = { name: 'system:node:node-1', uid: '', groups: ['system:authenticated'] };
const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';

const cases: {
  name: string;
  user?: UserInfo;
  method: string;
  path: string;
  decision: string;
  reason?: string;
}[] = [
  { name: 'its own lease', method: 'PUT', path: `${leases}/node-1`, decision: 'allow' },
  {
    name: 'a lease create (the name is checked at admission)',
    method: 'POST',
    path: leases,
    decision: 'allow',
  },
  {
    name: "another node's lease",
    method: 'GET',
    path: `${leases}/node-2`,
    decision: 'noOpinion',
    reason: 'can only access node lease with the same name as the requesting node',
  },
  {
    name: 'a list of leases',
    method: 'GET',
    path: leases,
    decision: 'noOpinion',
    reason: 'can only get, create, update, patch, or delete a node lease',
  },
  {
    name: 'a lease elsewhere',
    method: 'GET',
    path: '/apis/coordination.k8s.io/v1/namespaces/default/leases/node-1',
    decision: 'noOpinion',
    reason: 'can only access leases in the "kube-node-lease" system namespace',
  },
  {
    name: 'a secret no pod of it uses',
    method: 'GET',
    path: '/api/v1/namespaces/ns/secrets/s',
    decision: 'noOpinion',
    reason: "no relationship found between node 'node-1' and this object",
  },
  {
    name: 'a list of configmaps',
    method: 'GET',
    path: '/api/v1/namespaces/ns/configmaps',
    decision: 'noOpinion',
    reason: 'can only get individual resources of this type',
  },
  {
    name: 'a token of an account no pod of it uses',
    method: 'POST',
    path: '/api/v1/namespaces/ns/serviceaccounts/sa/token',
    decision: 'noOpinion',
    reason: "no relationship found between node 'node-1' and this object",
  },
  {
    name: 'a service account itself',
    method: 'GET',
    path: '/api/v1/namespaces/ns/serviceaccounts/sa',
    decision: 'noOpinion',
    reason: 'can only create tokens for individual service accounts',
  },
  { name: 'events (static rules)', method: 'POST', path: '/api/v1/namespaces/ns/events', decision: 'allow' },
  {
    name: 'tokenreviews (static rules)',
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/tokenreviews',
    decision: 'allow',
  },
  {
    name: 'namespaces are not in the static rules',
    method: 'GET',
    path: '/api/v1/namespaces/ns',
    decision: 'noOpinion',
  },
  {
    name: 'not in system:nodes: no opinion',
    user: notInGroup,
    method: 'PUT',
    path: `${leases}/node-1`,
    decision: 'noOpinion',
  },
  {
    name: 'another user: no opinion',
    user: { name: 'alice', uid: '', groups: ['system:nodes'] },
    method: 'POST',
    path: '/api/v1/namespaces/ns/events',
    decision: 'noOpinion',
  },
];

describe('Node authorizer', () => {
  const node = new NodeAuthorizer();
  for (const c of cases) {
    it(c.name, async () => {
      const v = await node.authorize(
        requestAttributes(c.user ?? node1, parseRequestInfo(c.method, c.path, {})),
      );
      assert.equal(v.decision, c.decision);
      assert.equal(v.reason, c.reason);
    });
  }
});
