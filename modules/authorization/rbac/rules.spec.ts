/** kube's RuleAllows, case by case: wildcards, subresources, resourceNames, non-resource URLs. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo, type UserInfo } from '../../api/index.js';
import { requestAttributes } from '../authorizer.js';
import { ruleAllows, type PolicyRule } from './rules.js';

const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:authenticated'] };
const req = (method: string, path: string, query: Record<string, string> = {}) =>
  requestAttributes(alice, parseRequestInfo(method, path, query), query);

const pods = '/api/v1/namespaces/ns/pods';
const cases: {
  name: string;
  rule: PolicyRule;
  method: string;
  path: string;
  query?: Record<string, string>;
  want: boolean;
}[] = [
  {
    name: 'exact verb, group, resource',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    method: 'GET',
    path: `${pods}/p`,
    want: true,
  },
  {
    name: 'another verb',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    method: 'DELETE',
    path: `${pods}/p`,
    want: false,
  },
  {
    name: 'list is not get',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    method: 'GET',
    path: pods,
    want: false,
  },
  {
    name: 'watch=1 is watch',
    rule: { verbs: ['watch'], apiGroups: [''], resources: ['pods'] },
    method: 'GET',
    path: pods,
    query: { watch: '1' },
    want: true,
  },
  {
    name: 'DELETE of a collection is deletecollection',
    rule: { verbs: ['delete'], apiGroups: [''], resources: ['pods'] },
    method: 'DELETE',
    path: pods,
    want: false,
  },
  {
    name: 'another group',
    rule: { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] },
    method: 'GET',
    path: `${pods}/p`,
    want: false,
  },
  {
    name: 'every verb, group and resource',
    rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    method: 'PATCH',
    path: '/apis/coordination.k8s.io/v1/namespaces/ns/leases/l',
    want: true,
  },
  {
    name: 'a resource does not cover its subresources',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    method: 'GET',
    path: `${pods}/p/log`,
    want: false,
  },
  {
    name: 'resource/subresource',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
    method: 'GET',
    path: `${pods}/p/log`,
    want: true,
  },
  {
    name: '*/subresource',
    rule: { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] },
    method: 'PUT',
    path: '/apis/apps/v1/namespaces/ns/deployments/d/scale',
    want: true,
  },
  {
    name: '*/subresource is not the resource',
    rule: { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] },
    method: 'GET',
    path: '/apis/apps/v1/namespaces/ns/deployments/d',
    want: false,
  },
  {
    name: 'pods/* is no pattern in kube',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] },
    method: 'GET',
    path: `${pods}/p/log`,
    want: false,
  },
  {
    name: '* covers subresources',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['*'] },
    method: 'GET',
    path: `${pods}/p/log`,
    want: true,
  },
  {
    name: 'resourceNames: the named object',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
    method: 'GET',
    path: `${pods}/p`,
    want: true,
  },
  {
    name: 'resourceNames: another object',
    rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
    method: 'GET',
    path: `${pods}/q`,
    want: false,
  },
  {
    name: 'resourceNames never allow create',
    rule: { verbs: ['create'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
    method: 'POST',
    path: pods,
    want: false,
  },
  {
    name: 'resourceNames never allow deletecollection',
    rule: { verbs: ['deletecollection'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
    method: 'DELETE',
    path: pods,
    want: false,
  },
  {
    name: 'resourceNames: a plain list',
    rule: { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
    method: 'GET',
    path: pods,
    want: false,
  },
  {
    name: 'resourceNames: a list pinned by metadata.name',
    rule: { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
    method: 'GET',
    path: pods,
    query: { fieldSelector: 'metadata.name=p' },
    want: true,
  },
  {
    name: 'resourceNames: a watch pinned by metadata.name==',
    rule: { verbs: ['watch'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
    method: 'GET',
    path: pods,
    query: { watch: 'true', fieldSelector: 'metadata.name==p' },
    want: true,
  },
  {
    name: 'resourceNames: a list pinned to another name',
    rule: { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
    method: 'GET',
    path: pods,
    query: { fieldSelector: 'metadata.name=q' },
    want: false,
  },
  {
    name: 'resourceNames: != pins nothing',
    rule: { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
    method: 'GET',
    path: pods,
    query: { fieldSelector: 'metadata.name!=p' },
    want: false,
  },
  {
    name: 'non-resource URL exact',
    rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] },
    method: 'GET',
    path: '/healthz',
    want: true,
  },
  {
    name: 'non-resource URL: no prefix without *',
    rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] },
    method: 'GET',
    path: '/healthz/ping',
    want: false,
  },
  {
    name: 'non-resource URL trailing *',
    rule: { verbs: ['get'], nonResourceURLs: ['/apis/*'] },
    method: 'GET',
    path: '/apis/apps/v1',
    want: true,
  },
  {
    name: 'non-resource URL *',
    rule: { verbs: ['get'], nonResourceURLs: ['*'] },
    method: 'GET',
    path: '/metrics',
    want: true,
  },
  {
    name: 'non-resource verb',
    rule: { verbs: ['get'], nonResourceURLs: ['*'] },
    method: 'POST',
    path: '/metrics',
    want: false,
  },
  {
    name: 'a resource rule never allows a path',
    rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    method: 'GET',
    path: '/metrics',
    want: false,
  },
  {
    name: 'a URL rule never allows a resource',
    rule: { verbs: ['*'], nonResourceURLs: ['*'] },
    method: 'GET',
    path: pods,
    want: false,
  },
];

describe('RBAC rule matching', () => {
  for (const c of cases) {
    it(c.name, () => assert.equal(ruleAllows(req(c.method, c.path, c.query), c.rule), c.want));
  }
});
