/**
 * kube's Node authorizer for the kinds served: own Lease, graph-checked objects (a pod on node-1 names them),
 * its own Node and Pods (AuthorizeNodeWithSelectors), the static node rules; each refusal with kube's reason.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo, type UserInfo } from '../api/index.js';
import { requestAttributes } from './authorizer.js';
import { NodeGraph } from './node-graph.js';
import { NodeAuthorizer } from './node.js';

const node1: UserInfo = {
  name: 'system:node:node-1',
  uid: '',
  groups: ['system:nodes', 'system:authenticated'],
};
const notInGroup: UserInfo = { name: 'system:node:node-1', uid: '', groups: ['system:authenticated'] };
const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
const ns = '/api/v1/namespaces/ns';

const graph = new NodeGraph();
graph.setPod({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'ns' },
  spec: {
    nodeName: 'node-1',
    serviceAccountName: 'robot',
    containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 'creds' } }] }],
    volumes: [
      { name: 'conf', configMap: { name: 'settings' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'claim' } },
    ],
  },
});
graph.setPod({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'elsewhere', namespace: 'ns' },
  spec: { nodeName: 'node-2', volumes: [{ name: 'v', secret: { secretName: 'theirs' } }] },
});
const unrelated = "no relationship found between node 'node-1' and this object";

const cases: {
  name: string;
  user?: UserInfo;
  method: string;
  path: string;
  query?: Record<string, string>;
  decision: string;
  reason?: string;
  /** AuthorizeNodeWithSelectors off */
  noSelectors?: boolean;
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
  { name: 'a secret its pod uses', method: 'GET', path: `${ns}/secrets/creds`, decision: 'allow' },
  {
    name: 'a watch of that one secret (metadata.name field selector)',
    method: 'GET',
    path: `${ns}/secrets`,
    query: { watch: 'true', fieldSelector: 'metadata.name=creds' },
    decision: 'allow',
  },
  {
    name: 'a secret only a pod on node-2 uses',
    method: 'GET',
    path: `${ns}/secrets/theirs`,
    decision: 'noOpinion',
    reason: unrelated,
  },
  {
    name: 'a secret no pod uses',
    method: 'GET',
    path: `${ns}/secrets/s`,
    decision: 'noOpinion',
    reason: unrelated,
  },
  {
    name: 'the same name in another namespace',
    method: 'GET',
    path: '/api/v1/namespaces/other/secrets/creds',
    decision: 'noOpinion',
    reason: unrelated,
  },
  {
    name: 'a secret its pod uses, written',
    method: 'PUT',
    path: `${ns}/secrets/creds`,
    decision: 'noOpinion',
    reason: 'can only read resources of this type',
  },
  {
    name: 'a list of configmaps',
    method: 'GET',
    path: `${ns}/configmaps`,
    decision: 'noOpinion',
    reason: 'No Object name found',
  },
  {
    name: 'configmaps of every namespace',
    method: 'GET',
    path: '/api/v1/configmaps',
    decision: 'noOpinion',
    reason: 'can only read namespaced object of this type',
  },
  { name: 'a configmap its pod uses', method: 'GET', path: `${ns}/configmaps/settings`, decision: 'allow' },
  {
    name: 'a claim its pod uses',
    method: 'GET',
    path: `${ns}/persistentvolumeclaims/claim`,
    decision: 'allow',
  },
  {
    name: 'a list of claims',
    method: 'GET',
    path: `${ns}/persistentvolumeclaims`,
    decision: 'noOpinion',
    reason: 'can only get individual resources of this type',
  },
  {
    name: 'a persistent volume (PVs are not served: never related)',
    method: 'GET',
    path: '/api/v1/persistentvolumes/pv',
    decision: 'noOpinion',
    reason: unrelated,
  },
  {
    name: 'a token of the account its pod runs as',
    method: 'POST',
    path: `${ns}/serviceaccounts/robot/token`,
    decision: 'allow',
  },
  {
    name: 'a token of an account no pod of it uses',
    method: 'POST',
    path: `${ns}/serviceaccounts/sa/token`,
    decision: 'noOpinion',
    reason: unrelated,
  },
  {
    name: 'a service account itself',
    method: 'GET',
    path: `${ns}/serviceaccounts/robot`,
    decision: 'noOpinion',
    reason: 'can only create tokens for individual service accounts',
  },
  { name: 'its own Node', method: 'GET', path: '/api/v1/nodes/node-1', decision: 'allow' },
  {
    name: 'its own Node, created (NodeRestriction checks the name)',
    method: 'POST',
    path: '/api/v1/nodes',
    decision: 'allow',
  },
  { name: 'its own Node status', method: 'PATCH', path: '/api/v1/nodes/node-1/status', decision: 'allow' },
  {
    name: 'another Node',
    method: 'GET',
    path: '/api/v1/nodes/node-2',
    decision: 'noOpinion',
    reason: "node 'node-1' cannot read 'node-2', only its own Node object",
  },
  {
    name: 'every Node',
    method: 'GET',
    path: '/api/v1/nodes',
    decision: 'noOpinion',
    reason: "node 'node-1' cannot read all nodes, only its own Node object",
  },
  { name: 'a Node deleted', method: 'DELETE', path: '/api/v1/nodes/node-1', decision: 'noOpinion' },
  { name: 'a pod bound to it', method: 'GET', path: `${ns}/pods/web`, decision: 'allow' },
  {
    name: 'a pod bound elsewhere',
    method: 'GET',
    path: `${ns}/pods/elsewhere`,
    decision: 'noOpinion',
    reason: unrelated,
  },
  {
    name: 'its pods (spec.nodeName field selector)',
    method: 'GET',
    path: '/api/v1/pods',
    query: { watch: 'true', fieldSelector: 'spec.nodeName=node-1' },
    decision: 'allow',
  },
  {
    name: "another node's pods",
    method: 'GET',
    path: '/api/v1/pods',
    query: { fieldSelector: 'spec.nodeName=node-2' },
    decision: 'noOpinion',
    reason: 'can only list/watch pods with spec.nodeName field selector',
  },
  {
    name: 'every pod, selectors off: the static rules',
    method: 'GET',
    path: '/api/v1/pods',
    decision: 'allow',
    noSelectors: true,
  },
  { name: 'a mirror pod created', method: 'POST', path: `${ns}/pods`, decision: 'allow' },
  { name: 'pod status', method: 'PATCH', path: `${ns}/pods/web/status`, decision: 'allow' },
  { name: 'an eviction', method: 'POST', path: `${ns}/pods/web/eviction`, decision: 'allow' },
  { name: 'a binding', method: 'POST', path: `${ns}/pods/web/binding`, decision: 'noOpinion' },
  { name: 'a pod updated', method: 'PUT', path: `${ns}/pods/web`, decision: 'noOpinion' },
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
  const node = new NodeAuthorizer(graph);
  const withoutSelectors = new NodeAuthorizer(graph, { selectors: false });
  for (const c of cases) {
    it(c.name, async () => {
      const query = c.query ?? {};
      const v = await (c.noSelectors ? withoutSelectors : node).authorize(
        requestAttributes(c.user ?? node1, parseRequestInfo(c.method, c.path, query), query),
      );
      assert.equal(v.decision, c.decision);
      assert.equal(v.reason, c.reason);
    });
  }
});
