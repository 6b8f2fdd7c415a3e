/** kube's Covers (escalation checks, reconciliation) and the compact wording of what is missing. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { covers, describeMissing } from './coverage.js';
import type { PolicyRule } from './rules.js';

const r = (
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  resourceNames?: string[],
): PolicyRule =>
  resourceNames ? { verbs, apiGroups, resources, resourceNames } : { verbs, apiGroups, resources };
const url = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs });

const cases: { name: string; owner: PolicyRule[]; wanted: PolicyRule[]; missing: string }[] = [
  {
    name: 'the same rule',
    owner: [r(['get'], [''], ['pods'])],
    wanted: [r(['get'], [''], ['pods'])],
    missing: '',
  },
  {
    name: 'a subset of verbs',
    owner: [r(['get', 'list'], [''], ['pods'])],
    wanted: [r(['list'], [''], ['pods'])],
    missing: '',
  },
  {
    name: 'wildcards cover everything',
    owner: [r(['*'], ['*'], ['*'])],
    wanted: [r(['escalate'], ['rbac.authorization.k8s.io'], ['roles'], ['x'])],
    missing: '',
  },
  {
    name: 'split over several owner rules',
    owner: [r(['get'], [''], ['pods']), r(['list'], [''], ['pods'])],
    wanted: [r(['get', 'list'], [''], ['pods'])],
    missing: '',
  },
  {
    name: 'missing verbs are listed together',
    owner: [r(['get'], [''], ['pods'])],
    wanted: [r(['get', 'list', 'watch'], [''], ['pods'])],
    missing: '{APIGroups:[""], Resources:["pods"], Verbs:["list" "watch"]}',
  },
  {
    name: 'another group',
    owner: [r(['get'], [''], ['deployments'])],
    wanted: [r(['get'], ['apps'], ['deployments'])],
    missing: '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}',
  },
  {
    name: '*/scale covers a scale subresource',
    owner: [r(['get'], ['apps'], ['*/scale'])],
    wanted: [r(['get'], ['apps'], ['deployments/scale'])],
    missing: '',
  },
  {
    name: 'a resource does not cover its subresources',
    owner: [r(['get'], [''], ['pods'])],
    wanted: [r(['get'], [''], ['pods/log'])],
    missing: '{APIGroups:[""], Resources:["pods/log"], Verbs:["get"]}',
  },
  {
    name: 'names: an owner without names covers them',
    owner: [r(['get'], [''], ['pods'])],
    wanted: [r(['get'], [''], ['pods'], ['a'])],
    missing: '',
  },
  {
    name: 'names: an owner with names does not cover all',
    owner: [r(['get'], [''], ['pods'], ['a'])],
    wanted: [r(['get'], [''], ['pods'])],
    missing: '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
  },
  {
    name: 'names: only the names held',
    owner: [r(['get'], [''], ['pods'], ['a'])],
    wanted: [r(['get'], [''], ['pods'], ['a', 'b'])],
    missing: '{APIGroups:[""], Resources:["pods"], ResourceNames:["b"], Verbs:["get"]}',
  },
  {
    name: 'URL prefix with *',
    owner: [url(['get'], ['/apis/*'])],
    wanted: [url(['get'], ['/apis/apps'])],
    missing: '',
  },
  {
    name: 'URL not held',
    owner: [url(['get'], ['/healthz'])],
    wanted: [url(['get'], ['/metrics'])],
    missing: '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
  },
];

describe('RBAC coverage', () => {
  for (const c of cases) {
    it(c.name, () => {
      const { covered, missing } = covers(c.owner, c.wanted);
      assert.equal(covered, c.missing === '');
      assert.equal(describeMissing(missing), c.missing);
    });
  }
});
